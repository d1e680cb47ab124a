"""What a page draws: Flet controls and components over the view-models; they draw state and forward taps."""

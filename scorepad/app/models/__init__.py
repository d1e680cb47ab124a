"""The view-models: plain Python (no Flet) that the screens draw and the tests drive directly."""

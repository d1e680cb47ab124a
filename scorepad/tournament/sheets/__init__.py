"""Wall sheets: the event printed to be pinned up and read from a metre away (``event.pdf``).

``roster`` reads what the sheets need beyond the service's views (the
event's date, who has withdrawn, each match's game scores); ``content``
arranges it into pages of rows (pairings by name and by table, standings,
a cross-table) with the stage they describe ("after round 2", "final");
``fonts`` registers the shipped DejaVu Sans so every PDF embeds its font;
``pdf`` lays the pages out in large type.
"""

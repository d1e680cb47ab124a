"""The table app: a Flet score-pad over the rules engine and the store.

``state`` holds the view-model (plain Python, no Flet); ``components`` draws it;
``main`` wires a page to a view-model; ``serve`` runs it in a window or a browser.
"""

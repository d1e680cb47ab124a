"""The table app and the tournament pages: Flet over the engine, the door and the store, in four floors.

``host`` serves (uvicorn, workers, the join door, assets, fast load); ``shell``
opens every page (the router, the page lifecycle, the tap guard, live updates);
``screens`` draws (Flet controls and components only); ``models`` holds the
flet-free view-models the screens draw. A floor imports only the floors below
it (import-linter checks it: ``[tool.importlinter]`` in ``pyproject.toml``);
``docs/map.md`` is the map.
"""

"""The server: uvicorn and its workers, the join door, the closed HTTP surface, assets and the fast load."""

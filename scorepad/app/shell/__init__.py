"""Every page's shell: the router, one page lifecycle, the tap guard, live updates and the guard of a failed page."""

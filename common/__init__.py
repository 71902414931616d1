"""The shared library: small tools every app may use (bulk copy, cache, outages, CSV, charts,
error pages, middleware, the broker). It imports no app; the project shell is deepsea/."""

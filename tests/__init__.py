"""hulldown's tests, by subject (docs/architecture.md)."""

"""The painted table (#46): terrain, models on their bases and the mini-map."""

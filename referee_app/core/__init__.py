"""The Qt-free core: knowledge, rulings, search, inspection, score sheets and records."""

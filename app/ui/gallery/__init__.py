"""The results gallery: its model (keyset pages of results), the thumbnail cache and loader, and
the pane (a virtualized grid)."""

"""The service layer: submit, lifecycle, media, recover, quota. The CLI and the GUI both drive it."""

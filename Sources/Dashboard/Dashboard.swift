// Placeholder: the Dashboard module is being written.

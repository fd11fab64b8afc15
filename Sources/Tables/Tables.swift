// Placeholder: the Tables module is being written.

// Placeholder: the Metrics module is being written.

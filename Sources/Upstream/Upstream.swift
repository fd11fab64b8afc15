// Placeholder: the Upstream module is being written.

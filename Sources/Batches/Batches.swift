// Placeholder: the Batches module is being written.

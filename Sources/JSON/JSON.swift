// Placeholder: the JSON module is being written.

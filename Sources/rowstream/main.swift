import Dashboard

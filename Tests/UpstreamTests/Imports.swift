// The fixture upstream (`FixtureServer`, `FixtureReply`, `ReplyGate`) and `eventually` live in TestSupport, shared
// with the dashboard tests; every file here sees them.
@_exported import TestSupport

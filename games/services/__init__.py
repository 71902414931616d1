"""Work done on game logs outside the request cycle: intake, verification, re-verification."""

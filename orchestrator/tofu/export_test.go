package tofu

// GroupLeft exposes groupLeft to the tests.
var GroupLeft = groupLeft

// Package httpstatetest serves tofu's http state backend for tests: a
// state per name (GET, POST, DELETE on /state/NAME) and its lock (LOCK and
// UNLOCK on /lock/NAME), on 127.0.0.1, behind a basic-auth user.
package httpstatetest

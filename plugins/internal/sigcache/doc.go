// Package sigcache is the store a plugin keeps its counts in: the
// entries of the last signatures it saw, most recent first.
//
// A plugin looks an entry up by walking Entries and calling Touch on the
// one whose signature matches, or adds a new one with Push. Each entry
// is of one kind, the half of the plugin that reads it. Push keeps at
// most the given number of entries of each kind, so that the halves do
// not evict each other's entries. The owner locks the store: one lock
// for both halves.
//
// # Internals
//
// The store is a slice ordered by recency. Touch and Push shift it by
// copy, which for a handful of entries costs less than a list.
package sigcache

package manifest

var knownUnmodelled = map[string][]string{}

// Package manifest reads Kubernetes manifests as kubectl reads them and
// turns them into a cluster schedkit can schedule on.
//
// A Reader reads YAML streams (every document separator kubectl accepts:
// "---" alone or followed by a comment; "..." document ends; CRLF line
// ends; a byte order mark), JSON documents and concatenated JSON streams
// (a stream whose first non-space byte is '{', as kubectl decides), Lists
// and typed lists (NodeList, PodList, ...) from readers, files, folders
// and stdin. YAML is read with a real stream decoder (go.yaml.in/yaml/v3)
// and its scalars are resolved as kubectl resolves them (YAML 1.1, through
// sigs.k8s.io/yaml and yaml/v2: yes/no/on/off are booleans, 0777 is octal);
// JSON is read token by token, so a 70 MB single-line List costs its
// objects, not a copy of the line. Nothing has a line-length limit.
//
// Every document is first read into a small generic tree that remembers
// lines, then decoded into schedkit's API types by a strict decoder, so
// that errors name the file, the line, the document, the list item, the
// object and the field path:
//
//	dump.yaml:812: document 1, items[40] (Pod shop/web): spec.containers[0].resources.requests.cpu: quantity "12parsecs": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
//
// Field names are case-sensitive, as the API server's decoder has them.
// Fields Kubernetes does not know are warnings worded like kubectl's strict
// field validation (`unknown field "spec.nodeSelectr"`); fields Kubernetes
// knows and schedkit does not model are read silently, and what is below
// them is not checked. Objects of kinds schedkit does not model are counted
// in the Report, never dropped silently.
package manifest

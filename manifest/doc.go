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
// sigs.k8s.io/yaml and yaml/v2: yes/no/on/off are booleans, 0777 is octal).
// JSON is scanned byte by byte and each document (each item of a large
// List, streamed one at a time) is decoded straight into its typed
// object, so a 70 MB single-line List costs its objects, not a copy of
// the line or a tree of it. A YAML List in kubectl's shape (`kubectl get
// -o yaml`: `items:` then `- ` entries at one column) is read item by
// item the same way: its text is cut at the items' entries, each item is
// parsed alone (kubectl's block-style subset straight into the generic
// tree, anything else by yaml/v3) and dropped once decoded; wherever the
// cut might not read what the whole document reads (anchors and aliases,
// comments or tabs at the items' column, a lone CR, duplicate top-level
// keys, any YAML error, ...) the document is read whole instead, so
// results and messages do not depend on it (a property test and a fuzz
// target hold the two to that). Nothing has a line-length limit.
//
// A YAML document, and a JSON document the fast path declines (any error,
// a duplicate key), is read into a small generic tree that remembers
// lines, then decoded into schedkit's API types by a strict decoder; the
// fast path reports exactly what the tree does (a property test holds it
// to that), so that errors name the file, the line, the document, the list
// item, the object and the field path:
//
//	dump.yaml:812: document 1, items[40] (Pod shop/web): spec.containers[0].resources.requests.cpu: quantity "12parsecs": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
//
// Field names are case-sensitive, as the API server's decoder has them.
// Fields Kubernetes does not know, and fields given twice, are errors
// worded as the API server's strict field validation words them for
// `kubectl apply` (`strict decoding error: unknown field
// "spec.nodeSelectr"`), or warnings or nothing with ValidateWarn and
// ValidateIgnore (Options.Validate, kubectl's --validate); fields
// Kubernetes knows and schedkit does not model are read silently, and what
// is below them is not checked. Only the versions a default v1.37.2 API
// server serves are read: another version of a kind schedkit models, or a
// removed version, is an error naming the version served. Objects of kinds schedkit does not model are counted
// in the Report, never dropped silently.
//
// The DRA kinds (DeviceClass, ResourceSlice, ResourceClaim,
// ResourceClaimTemplate, DeviceTaintRule) are read in resource.k8s.io/v1
// only, as v1.37.2 leaves v1beta1, v1beta2 and v1alpha3 disabled by
// default. They are defaulted and validated as the API server does on
// create (package dra's Validate functions); CEL selectors are compiled in
// Kubernetes' environment (package dra/cel), so an expression that does
// not compile is an error naming the file, line, object and field. Claims
// read keep their allocation and reservedFor: their devices are in use.
//
// Workloads and PodGroups are read in scheduling.k8s.io/v1beta1, which
// v1.37.2 serves with GenericWorkload on and the version enabled by
// --runtime-config; v1alpha3 and CompositePodGroup are not read. They are
// validated as such a server validates them on create (package
// podgroup), a new PodGroup's status is dropped and its priority resolved
// from its class (admission.ResolvePodGroupPriority). A pod's
// spec.schedulingGroup is read and validated. Reading does not depend on
// the scheduler's gates: with GenericWorkload off the scheduler ignores
// the groups. No in-tree controller makes PodGroups with the scheduler's
// gates alone (the Job controller's WorkloadWithJob is an alpha gate of
// kube-controller-manager), so the input carries them.
//
// Because kubectl reads YAML 1.1, an unquoted `n`, `y`, `no`, `on` or `off`
// is a boolean: `name: n` is an error here as it is for kubectl
// ("cannot unmarshal bool false into Go value of type string"); quote it.
// Where kubectl would drop data silently, the reader reports it instead:
// content after a "..." document end without a new "---" is a YAML error
// (kubectl reads the first document of such a chunk only).
//
// Load (or NewCluster over objects already read) makes the cluster: nodes
// and bound pods in a cluster.Snapshot, every other object in the
// snapshot's object store, and the pending pods in the order
// kube-scheduler's queue takes them (PrioritySort: higher priority first,
// then arrival, for which reading order stands). Pods that have been
// through an API server (uid, resourceVersion, creationTimestamp or
// spec.priority set) are taken as stored; new pods are admitted
// (admission.Admit) and validated, and those the API server would reject
// are reported with its message while the others go on. A new object
// with only metadata.generateName is named as the API server names it
// (Reader.SetSeed). With Options.ExpandWorkloads, workloads add the pods
// their controllers would create: package workload emulates the
// controllers, and Workloads gives it the objects read.
package manifest

package manifest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/workload"
)

// Source says where an object was read.
type Source struct {
	// File is the path the object was read from ("-" for standard input,
	// or the name given to Reader.Read).
	File string
	// Line is the 1-based line of the file the object starts on (0 when
	// unknown).
	Line int
	// Document is the 1-based index of the document in the file, empty
	// documents included.
	Document int
	// Item is the 0-based index of the object in a List's items, or -1.
	Item int
}

// String gives the source as "file:line: document N" (", items[i]" for
// an item of a List).
func (s Source) String() string {
	var b strings.Builder
	b.WriteString(s.File)
	if s.Line > 0 {
		fmt.Fprintf(&b, ":%d", s.Line)
	}
	fmt.Fprintf(&b, ": document %d", s.Document)
	if s.Item >= 0 {
		fmt.Fprintf(&b, ", items[%d]", s.Item)
	}
	return b.String()
}

// Error is a problem with what was read: where (file, line, document,
// list item), which object when known, which field, and what.
type Error struct {
	// Source is the document or list item the error is in.
	Source Source
	// Line is the line of the field in error (Source.Line when the error
	// is about the whole object).
	Line int
	// Object names the object, as "Pod shop/web", when known.
	Object string
	// Path is the field path, such as spec.containers[0].resources.requests.cpu;
	// empty when the error is about the document.
	Path string
	// Err is the problem.
	Err error
}

// Error prints the error as
// `file:line: document N (Kind ns/name): path: problem`.
func (e *Error) Error() string { return format(e.Source, e.Line, e.Object, e.Path, e.Err.Error()) }

// Unwrap returns the problem.
func (e *Error) Unwrap() error { return e.Err }

// Warning is something read that was accepted but deserves a word, such
// as an unknown field or a PriorityClass that is not among the objects.
type Warning struct {
	// Source is the document or list item the warning is about.
	Source Source
	// Line is the line of the field the warning is about.
	Line int
	// Object names the object, as "Pod shop/web", when known.
	Object string
	// Message says what, such as `unknown field "spec.nodeSelectr"`.
	Message string
}

// String prints the warning like an Error.
func (w Warning) String() string { return format(w.Source, w.Line, w.Object, "", w.Message) }

func format(src Source, line int, object, path, msg string) string {
	if line == 0 {
		line = src.Line
	}
	src.Line = line
	var b strings.Builder
	switch {
	case src == (Source{}) && object != "":
		// Not read: created by a controller.
		b.WriteString(object)
	case src == (Source{}):
		b.WriteString("(created)")
	default:
		b.WriteString(src.String())
		if object != "" {
			fmt.Fprintf(&b, " (%s)", object)
		}
	}
	b.WriteString(": ")
	if path != "" {
		b.WriteString(path)
		b.WriteString(": ")
	}
	b.WriteString(msg)
	return b.String()
}

// Set is what was read: the objects, by kind, in the order they were
// read, with where each came from.
type Set struct {
	// Nodes of the cluster.
	Nodes []*api.Node
	// Pods, bound (spec.nodeName set) or pending, as read (not admitted).
	Pods []*api.Pod
	// Namespaces, whose labels namespaceSelectors match.
	Namespaces []*api.Namespace
	// PriorityClasses that pods name.
	PriorityClasses []*api.PriorityClass
	// LimitRanges that admission applies to new pods.
	LimitRanges []*api.LimitRange
	// PodDisruptionBudgets that preemption respects.
	PodDisruptionBudgets []*api.PodDisruptionBudget
	// ResourceQuotas of namespaces.
	ResourceQuotas []*api.ResourceQuota

	// Workloads: spreading reads their selectors; ExpandWorkloads makes
	// the pods their controllers would create.
	Services               []*api.Service
	ReplicationControllers []*api.ReplicationController
	ReplicaSets            []*api.ReplicaSet
	StatefulSets           []*api.StatefulSet
	Deployments            []*api.Deployment
	DaemonSets             []*api.DaemonSet
	Jobs                   []*api.Job
	CronJobs               []*api.CronJob
	// ControllerRevisions hold the pod templates StatefulSets and
	// DaemonSets rolled out (ExpandWorkloads reads them; they are not
	// in the snapshot's object store).
	ControllerRevisions []*api.ControllerRevision

	// Storage objects the volume plugins read.
	PersistentVolumes      []*api.PersistentVolume
	PersistentVolumeClaims []*api.PersistentVolumeClaim
	StorageClasses         []*api.StorageClass
	CSINodes               []*api.CSINode
	CSIDrivers             []*api.CSIDriver
	CSIStorageCapacities   []*api.CSIStorageCapacity
	VolumeAttachments      []*api.VolumeAttachment

	// DRA objects (resource.k8s.io/v1) the DynamicResources plugin reads.
	DeviceClasses          []*api.DeviceClass
	ResourceSlices         []*api.ResourceSlice
	ResourceClaims         []*api.ResourceClaim
	ResourceClaimTemplates []*api.ResourceClaimTemplate
	DeviceTaintRules       []*api.DeviceTaintRule

	// Gang scheduling objects (scheduling.k8s.io/v1beta1), which the
	// scheduler reads with GenericWorkload on.
	Workloads []*api.Workload
	PodGroups []*api.PodGroup

	sources map[any]Source
	// unmodelled has, for the objects that set some, the paths of their
	// schedulingFields.
	unmodelled map[any][]string
	// raw has the JSON of the Deployments, ReplicaSets, DaemonSets and
	// StatefulSets read, for the pod-template-hash and the
	// controller-revision-hash, which cover fields schedkit does not model.
	raw map[any][]byte
}

// storeObjects are the objects for the snapshot's object store: all but
// nodes and pods.
func (o *Set) storeObjects() []any {
	var out []any
	add := func(objs ...any) { out = append(out, objs...) }
	for _, x := range o.Namespaces {
		add(x)
	}
	for _, x := range o.PriorityClasses {
		add(x)
	}
	for _, x := range o.LimitRanges {
		add(x)
	}
	for _, x := range o.PodDisruptionBudgets {
		add(x)
	}
	for _, x := range o.ResourceQuotas {
		add(x)
	}
	for _, x := range o.Services {
		add(x)
	}
	for _, x := range o.ReplicationControllers {
		add(x)
	}
	for _, x := range o.ReplicaSets {
		add(x)
	}
	for _, x := range o.StatefulSets {
		add(x)
	}
	for _, x := range o.Deployments {
		add(x)
	}
	for _, x := range o.DaemonSets {
		add(x)
	}
	for _, x := range o.Jobs {
		add(x)
	}
	for _, x := range o.CronJobs {
		add(x)
	}
	for _, x := range o.PersistentVolumes {
		add(x)
	}
	for _, x := range o.PersistentVolumeClaims {
		add(x)
	}
	for _, x := range o.StorageClasses {
		add(x)
	}
	for _, x := range o.CSINodes {
		add(x)
	}
	for _, x := range o.CSIDrivers {
		add(x)
	}
	for _, x := range o.CSIStorageCapacities {
		add(x)
	}
	for _, x := range o.VolumeAttachments {
		add(x)
	}
	for _, x := range o.DeviceClasses {
		add(x)
	}
	for _, x := range o.ResourceSlices {
		add(x)
	}
	for _, x := range o.ResourceClaims {
		add(x)
	}
	for _, x := range o.ResourceClaimTemplates {
		add(x)
	}
	for _, x := range o.DeviceTaintRules {
		add(x)
	}
	for _, x := range o.Workloads {
		add(x)
	}
	for _, x := range o.PodGroups {
		add(x)
	}
	return out
}

// Source returns where obj (a pointer held by the Set) was read.
func (o *Set) Source(obj any) (Source, bool) {
	s, ok := o.sources[obj]
	return s, ok
}

// UnmodelledFields returns the field paths (such as spec.resourceClaims)
// that obj (a pointer held by the Set) sets among the fields
// Kubernetes schedules by and schedkit reads without modelling; nil when
// it sets none. A scheduling decision about such an object is made without
// them: the command marks it unverified.
func (o *Set) UnmodelledFields(obj any) []string { return o.unmodelled[obj] }

// Report tells what was read and not taken as it was: kinds schedkit does
// not model, warnings, and new pods the API server would reject.
type Report struct {
	// Skipped counts the objects of kinds schedkit does not model, by
	// kind (Kind.group, group omitted for the core group: "Service",
	// "Ingress.networking.k8s.io").
	Skipped map[string]int
	// Warnings in the order they were found.
	Warnings []Warning
	// Rejected are the new pods admission or validation rejected, with
	// the API server's message (they are not scheduled), and the new
	// claims admission rejected (they are not stored).
	Rejected []Rejection
	// TerminalPods counts the pods in phase Succeeded or Failed, which
	// the scheduler ignores.
	TerminalPods int
	// ReleasedClaims are the stored ResourceClaims the resourceclaim
	// controller changes or deletes at load because pods that reserved
	// or own them are done or replaced (workload.ReleaseClaims), in
	// reading order.
	ReleasedClaims []workload.ClaimRelease
	// Objects counts the objects read of the kinds schedkit models (the
	// skipped ones are in Skipped): with them, 0 means the input held no
	// object at all.
	Objects int
}

// Rejection is a new object the API server would not have accepted: a
// pod, or a claim.
type Rejection struct {
	// Source is where the object was read.
	Source Source
	// Pod is the pod as read; nil for another kind.
	Pod *api.Pod
	// Object names another kind's object, as "PersistentVolumeClaim
	// ns/name", when Pod is nil.
	Object string
	// Err is the API server's answer.
	Err error
}

// String prints the rejection with its source.
func (r Rejection) String() string {
	if r.Pod == nil {
		return format(r.Source, 0, r.Object, "", r.Err.Error())
	}
	return format(r.Source, 0, "Pod "+podName(r.Pod), "", r.Err.Error())
}

func podName(p *api.Pod) string {
	ns := p.Namespace
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + p.Name
}

// kindInfo is a kind schedkit models.
type kindInfo struct {
	group, version, kind string
	namespaced           bool
	typ                  reflect.Type
	add                  func(o *Set, obj any)
	// meta and typeMeta are the index paths of the type's ObjectMeta
	// and TypeMeta fields: looked up once, not by name per object.
	meta, typeMeta []int
}

func kindOf[T any](group, version, kind string, namespaced bool, add func(o *Set, obj *T)) kindInfo {
	t := reflect.TypeFor[T]()
	meta, _ := t.FieldByName("ObjectMeta")
	tm, _ := t.FieldByName("TypeMeta")
	return kindInfo{group: group, version: version, kind: kind, namespaced: namespaced, typ: t,
		add: func(o *Set, obj any) { add(o, obj.(*T)) }, meta: meta.Index, typeMeta: tm.Index}
}

// kinds are the kinds read into a Set.
func kinds() []kindInfo {
	return []kindInfo{
		kindOf("", "v1", "Node", false, func(o *Set, x *api.Node) { o.Nodes = append(o.Nodes, x) }),
		kindOf("", "v1", "Pod", true, func(o *Set, x *api.Pod) { o.Pods = append(o.Pods, x) }),
		kindOf("", "v1", "Namespace", false, func(o *Set, x *api.Namespace) { o.Namespaces = append(o.Namespaces, x) }),
		kindOf("", "v1", "LimitRange", true, func(o *Set, x *api.LimitRange) { o.LimitRanges = append(o.LimitRanges, x) }),
		kindOf("scheduling.k8s.io", "v1", "PriorityClass", false, func(o *Set, x *api.PriorityClass) {
			o.PriorityClasses = append(o.PriorityClasses, x)
		}),
		kindOf("policy", "v1", "PodDisruptionBudget", true, func(o *Set, x *api.PodDisruptionBudget) {
			o.PodDisruptionBudgets = append(o.PodDisruptionBudgets, x)
		}),
		kindOf("", "v1", "ResourceQuota", true, func(o *Set, x *api.ResourceQuota) { o.ResourceQuotas = append(o.ResourceQuotas, x) }),
		kindOf("", "v1", "Service", true, func(o *Set, x *api.Service) { o.Services = append(o.Services, x) }),
		kindOf("", "v1", "ReplicationController", true, func(o *Set, x *api.ReplicationController) {
			o.ReplicationControllers = append(o.ReplicationControllers, x)
		}),
		kindOf("apps", "v1", "ReplicaSet", true, func(o *Set, x *api.ReplicaSet) { o.ReplicaSets = append(o.ReplicaSets, x) }),
		kindOf("apps", "v1", "StatefulSet", true, func(o *Set, x *api.StatefulSet) { o.StatefulSets = append(o.StatefulSets, x) }),
		kindOf("apps", "v1", "Deployment", true, func(o *Set, x *api.Deployment) { o.Deployments = append(o.Deployments, x) }),
		kindOf("apps", "v1", "DaemonSet", true, func(o *Set, x *api.DaemonSet) { o.DaemonSets = append(o.DaemonSets, x) }),
		kindOf("batch", "v1", "Job", true, func(o *Set, x *api.Job) { o.Jobs = append(o.Jobs, x) }),
		kindOf("batch", "v1", "CronJob", true, func(o *Set, x *api.CronJob) { o.CronJobs = append(o.CronJobs, x) }),
		kindOf("apps", "v1", "ControllerRevision", true, func(o *Set, x *api.ControllerRevision) {
			o.ControllerRevisions = append(o.ControllerRevisions, x)
		}),
		kindOf("", "v1", "PersistentVolume", false, func(o *Set, x *api.PersistentVolume) {
			o.PersistentVolumes = append(o.PersistentVolumes, x)
		}),
		kindOf("", "v1", "PersistentVolumeClaim", true, func(o *Set, x *api.PersistentVolumeClaim) {
			o.PersistentVolumeClaims = append(o.PersistentVolumeClaims, x)
		}),
		kindOf("storage.k8s.io", "v1", "StorageClass", false, func(o *Set, x *api.StorageClass) { o.StorageClasses = append(o.StorageClasses, x) }),
		kindOf("storage.k8s.io", "v1", "CSINode", false, func(o *Set, x *api.CSINode) { o.CSINodes = append(o.CSINodes, x) }),
		kindOf("storage.k8s.io", "v1", "CSIDriver", false, func(o *Set, x *api.CSIDriver) { o.CSIDrivers = append(o.CSIDrivers, x) }),
		kindOf("storage.k8s.io", "v1", "CSIStorageCapacity", true, func(o *Set, x *api.CSIStorageCapacity) {
			o.CSIStorageCapacities = append(o.CSIStorageCapacities, x)
		}),
		kindOf("storage.k8s.io", "v1", "VolumeAttachment", false, func(o *Set, x *api.VolumeAttachment) {
			o.VolumeAttachments = append(o.VolumeAttachments, x)
		}),
		kindOf(draGroup, "v1", "DeviceClass", false, func(o *Set, x *api.DeviceClass) { o.DeviceClasses = append(o.DeviceClasses, x) }),
		kindOf(draGroup, "v1", "ResourceSlice", false, func(o *Set, x *api.ResourceSlice) { o.ResourceSlices = append(o.ResourceSlices, x) }),
		kindOf(draGroup, "v1", "ResourceClaim", true, func(o *Set, x *api.ResourceClaim) { o.ResourceClaims = append(o.ResourceClaims, x) }),
		kindOf(draGroup, "v1", "ResourceClaimTemplate", true, func(o *Set, x *api.ResourceClaimTemplate) {
			o.ResourceClaimTemplates = append(o.ResourceClaimTemplates, x)
		}),
		kindOf(draGroup, "v1", "DeviceTaintRule", false, func(o *Set, x *api.DeviceTaintRule) { o.DeviceTaintRules = append(o.DeviceTaintRules, x) }),
		kindOf(schedulingGroup, "v1beta1", "Workload", true, func(o *Set, x *api.Workload) { o.Workloads = append(o.Workloads, x) }),
		kindOf(schedulingGroup, "v1beta1", "PodGroup", true, func(o *Set, x *api.PodGroup) { o.PodGroups = append(o.PodGroups, x) }),
	}
}

// objectKey identifies an object for duplicate detection.
type objectKey struct{ group, kind, namespace, name string }

// Reader reads manifests as kubectl reads them: YAML streams (any
// separator kubectl accepts, comments, CRLF, a byte order mark), JSON
// documents and concatenated JSON streams, Lists and typed lists
// (NodeList, PodList, ...). Objects of the kinds schedkit models are
// decoded with field paths and line numbers in every error; other kinds are
// counted in the Report. A Reader is not safe for concurrent use.
type Reader struct {
	objs   Set
	report Report
	errs   []error
	kinds  map[string]*kindInfo // by kind
	dec    *decoder
	seen   map[objectKey]Source
	// deferred collects the effects of a List's items while the List is
	// streamed (see later).
	deferred *[]func(*Reader)
	// seen0 is the fast decoder's key stack, kept between documents.
	seen0 [][]byte
	// wholeYAML reads every YAML document whole (the reference the
	// chunked List path is tested against).
	wholeYAML bool
	// chunked counts the YAML Lists read item by item.
	chunked int
	// slowJSON reads JSON through the generic tree only (the reference
	// the fast path is tested against).
	slowJSON bool
	// bigJSON is the size from which a JSON document is streamed item by
	// item (0: bigDocumentSize).
	bigJSON int64
	// nameRNG draws the names of new objects that have only
	// generateName (see SetSeed).
	nameRNG *rand.Rand
	// cel compiles the DRA objects' selectors for validation; built on
	// the first one.
	cel *cel.Compiler
	// raw is the JSON of the document being finished, for the kinds
	// keepsRaw names.
	raw []byte
	// validate is how unknown and duplicate fields are taken.
	validate FieldValidation
	// draFeatures are the DRA gates slices are validated by.
	draFeatures dra.Features
	// ctx stops reading when done (SetContext); progress hears of each
	// read (SetProgress); bytes and objects are what it is told.
	ctx      context.Context
	progress func(ReadProgress)
	bytes    int64
	objects  int
	// listed counts the items of the List being read, for progress
	// before the List's effects apply.
	listed int
	// workers is how many goroutines decode a streamed List's items (0:
	// one a core; 1: the reading one alone); itemChunk is how many bytes
	// of items a worker is given at a time (0: itemChunkSize).
	workers, itemChunk int
}

// SetFieldValidation sets how unknown and duplicate fields are taken
// (ValidateStrict unless set).
func (r *Reader) SetFieldValidation(v FieldValidation) { r.validate = v }

// SetDRAFeatures sets the DRA feature gates ResourceSlices are validated
// by (v1.37.2's defaults unless set): with DRAFractionalCapacityRange on,
// capacity request policies are validated as an API server with it on
// validates them.
func (r *Reader) SetDRAFeatures(f dra.Features) { r.draFeatures = f }

// SetShareResourceLists makes the fast JSON path give the objects whose
// api.ResourceList fields have the same JSON text, not empty, one map
// (each decoding goroutine its own): a dump's pods of one template then
// hold one map of requests instead of one each. The objects must then be
// taken as read-only there: change a list only after copying it.
func (r *Reader) SetShareResourceLists(share bool) { r.dec.shareLists = share }

// NewReader returns an empty Reader.
func NewReader() *Reader {
	r := &Reader{
		objs:   Set{sources: map[any]Source{}},
		report: Report{Skipped: map[string]int{}},
		kinds:  map[string]*kindInfo{},
		dec:    newDecoder(),
		seen:   map[objectKey]Source{},
	}
	for _, k := range kinds() {
		r.kinds[k.kind] = &k
	}
	return r
}

// maxErrors is how many errors a Reader keeps; later ones are counted.
const maxErrors = 100

// Read reads every document of in, naming it name in sources and errors.
// It returns the errors found in in (joined), after reading what could
// be read; the errors are also kept for Err. A YAML List in kubectl's
// shape is read item by item; should it have to be read whole after all,
// in is read again from the List's start by seeking when it is an
// io.Seeker that can (a file), else from bytes held meanwhile.
func (r *Reader) Read(name string, in io.Reader) error {
	before := len(r.errs)
	if err := r.ctxErr(); err != nil {
		r.errs = append(r.errs, err)
		return err
	}
	in = r.watch(name, in)
	var seek io.Seeker
	var seekBase int64
	if sk, ok := in.(io.Seeker); ok {
		if pos, err := sk.Seek(0, io.SeekCurrent); err == nil {
			seek, seekBase = sk, pos
		}
	}
	s := newStreamFast(name, in, !r.slowJSON, r.bigJSON)
	s.chunk, s.seek, s.seekBase = !r.wholeYAML, seek, seekBase
	for {
		if err := r.ctxErr(); err != nil {
			r.errs = append(r.errs, err)
			break
		}
		doc, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				err = &Error{Source: Source{File: name, Document: s.index + 1, Item: -1}, Err: err}
			}
			r.errs = append(r.errs, err)
			if s.done {
				break
			}
			continue
		}
		src := Source{File: name, Line: doc.line, Document: doc.index, Item: -1}
		switch {
		case doc.big:
			start := s.jsOff
			if err := r.bigDocument(s, src); err != nil && !s.retryBig(start) {
				r.errs = append(r.errs, err)
				s.done = true
			}
		case doc.list != nil:
			// On a fallback the stream gives the document again, whole.
			r.yamlList(s, src, doc.list)
		case doc.raw != nil:
			r.rawDocument(src, doc.raw, "", "")
		default:
			r.document(src, &doc.v, "", "")
		}
		// A List's items, counted as read, are now objects or not.
		r.listed = 0
		if s.done {
			break
		}
	}
	if s.t.err != nil && s.t.err != io.EOF {
		r.errs = append(r.errs, &Error{Source: Source{File: name, Document: s.index, Item: -1}, Err: s.t.err})
	}
	return errors.Join(r.errs[before:]...)
}

// canSeek reports whether in is an io.Seeker that can seek (a file, not
// a pipe).
func canSeek(in io.Reader) bool {
	sk, ok := in.(io.Seeker)
	if !ok {
		return false
	}
	_, err := sk.Seek(0, io.SeekCurrent)
	return err == nil
}

// extensions are the file name extensions read in folders, as kubectl's.
var extensions = []string{".json", ".yaml", ".yml"}

// ReadPath reads a file, or the .json, .yaml and .yml files of a folder
// in name order (with recursive, of its subfolders too, as kubectl -R);
// "-" reads stdin (a pipe through a temporary file, removed after, that
// a List read whole after all is read again from).
func (r *Reader) ReadPath(path string, recursive bool, stdin io.Reader) error {
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		in := stdin
		if !canSeek(stdin) {
			// A pipe: spooled through a temporary file, so that a List
			// read whole after all is read again from the file, not
			// from its bytes held meanwhile (held as before when no
			// temporary file can be made).
			if sp, err := newSpool(stdin); err == nil {
				defer sp.close()
				in = sp
			}
		}
		return r.Read("-", in)
	}
	st, err := os.Stat(path)
	if err != nil {
		r.errs = append(r.errs, err)
		return err
	}
	if !st.IsDir() {
		return r.readFile(path)
	}
	before := len(r.errs)
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range extensions {
			if strings.HasSuffix(p, ext) {
				r.readFile(p)
				break
			}
		}
		return nil
	})
	if err != nil {
		r.errs = append(r.errs, err)
	}
	return errors.Join(r.errs[before:]...)
}

func (r *Reader) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		r.errs = append(r.errs, err)
		return err
	}
	defer f.Close()
	return r.Read(path, f)
}

// Objects returns the objects read so far.
func (r *Reader) Objects() *Set { return &r.objs }

// Report returns what was skipped and the warnings so far.
func (r *Reader) Report() *Report { return &r.report }

// Err returns every error found so far, joined, or nil.
func (r *Reader) Err() error {
	if len(r.errs) > maxErrors {
		errs := append(r.errs[:maxErrors:maxErrors], fmt.Errorf("and %d more errors", len(r.errs)-maxErrors))
		return errors.Join(errs...)
	}
	return errors.Join(r.errs...)
}

func (r *Reader) errorf(src Source, line int, object, format string, args ...any) {
	r.errs = append(r.errs, &Error{Source: src, Line: line, Object: object, Err: fmt.Errorf(format, args...)})
}

func (r *Reader) warnf(src Source, line int, object, format string, args ...any) {
	r.report.Warnings = append(r.report.Warnings, Warning{Source: src, Line: line, Object: object, Message: fmt.Sprintf(format, args...)})
}

// later applies an effect on what was read (objects, errors, warnings,
// counts): at once, or, while a large List is being streamed, when the
// List is known to be one (see bigDocument).
func (r *Reader) later(f func(*Reader)) {
	if r.deferred != nil {
		*r.deferred = append(*r.deferred, f)
		return
	}
	f(r)
}

// document reads one document or list item; kind and apiVersion are the
// defaults a typed list gives its items.
func (r *Reader) document(src Source, v *value, defKind, defVersion string) {
	line, vk := int(v.line), v.kind
	if vk != kindMap {
		r.later(func(r *Reader) { r.errorf(src, line, "", "a document must be an object, not a %s", vk) })
		return
	}
	kind, apiVersion := v.str("kind"), v.str("apiVersion")
	if kind == "" {
		kind = defKind
	}
	if apiVersion == "" {
		apiVersion = defVersion
	}
	if kind == "" {
		r.later(func(r *Reader) { r.errorf(src, line, "", "Object 'Kind' is missing") })
		return
	}
	if items, ok := v.get("items"); ok && (kind == "List" || strings.HasSuffix(kind, "List")) {
		if items.kind == kindNull {
			return
		}
		if items.kind != kindList {
			ik := items.kind
			line := int(items.line)
			r.later(func(r *Reader) {
				r.errorf(src, line, kind, "items: cannot unmarshal %s into Go value of type array", ik)
			})
			return
		}
		itemKind := ""
		if kind != "List" {
			itemKind = strings.TrimSuffix(kind, "List")
		}
		for i := range items.elems {
			isrc := src
			isrc.Item, isrc.Line = i, int(items.elems[i].line)
			r.document(isrc, &items.elems[i], itemKind, apiVersion)
			items.elems[i] = value{} // done with it
		}
		return
	}
	ki, version := r.kindFor(src, line, kind, apiVersion)
	if ki == nil {
		return
	}
	obj := reflect.New(ki.typ)
	r.dec.issues = r.dec.issues[:0]
	r.dec.noted = r.dec.noted[:0]
	r.dec.path.reset(0)
	r.dec.decode(v, obj.Elem())
	if keepsRaw(kind) {
		r.raw = v.appendJSON(nil)
	}
	r.finish(src, int(v.line), ki, kind, apiVersion, version, obj)
}

// kindFor returns the modelled kind of a document and the version its
// apiVersion names; for other kinds it counts the document as skipped
// and returns nil.
func (r *Reader) kindFor(src Source, line int, kind, apiVersion string) (*kindInfo, string) {
	group, version := "", apiVersion
	if g, ver, ok := strings.Cut(apiVersion, "/"); ok {
		group, version = g, ver
	}
	if apiVersion == "" {
		// The API server's decoder needs both; kubectl refuses the
		// document before sending it.
		r.later(func(r *Reader) { r.errorf(src, line, "", "Object 'apiVersion' is missing (kind %s)", kind) })
		return nil, ""
	}
	ki := r.kinds[kind]
	if ki != nil && apiVersion != "" && ki.group != group && !builtinGroup(group) {
		ki = nil // a custom resource's kind
	}
	if ki != nil && apiVersion != "" && (ki.group != group || ki.version != version) {
		// A kind schedkit models, in a version the API server does not
		// serve (removed, such as policy/v1beta1, or never served): kubectl
		// finds no REST mapping for it.
		served := strings.TrimPrefix(ki.group+"/"+ki.version, "/")
		r.later(func(r *Reader) {
			r.errorf(src, line, "", "no matches for kind %q in version %q: Kubernetes v1.37.2 serves %s in %s only", kind, apiVersion, kind, served)
		})
		return nil, ""
	}
	if ki == nil && removedGroupVersions[apiVersion] {
		r.later(func(r *Reader) {
			r.errorf(src, line, "", "no matches for kind %q in version %q: Kubernetes v1.37.2 does not serve %s", kind, apiVersion, apiVersion)
		})
		return nil, ""
	}
	if ki == nil {
		key := kind
		if group != "" {
			key += "." + group
		}
		r.later(func(r *Reader) { r.report.Skipped[key]++ })
		return nil, ""
	}
	return ki, version
}

// builtinGroup reports whether an API group is one of Kubernetes' own
// (the core group, the unsuffixed groups, *.k8s.io): a kind schedkit
// models named in another group is some custom resource's.
func builtinGroup(g string) bool {
	switch g {
	case "", "apps", "batch", "policy", "extensions", "autoscaling":
		return true
	}
	return strings.HasSuffix(g, ".k8s.io")
}

// removedGroupVersions are API versions Kubernetes served once that a
// default v1.37.2 API server does not serve (removed, or beta and
// disabled by default): any kind in one is refused as kubectl refuses it.
var removedGroupVersions = map[string]bool{
	"extensions/v1beta1":                   true,
	"apps/v1beta1":                         true,
	"apps/v1beta2":                         true,
	"policy/v1beta1":                       true,
	"batch/v1beta1":                        true,
	"batch/v2alpha1":                       true,
	"autoscaling/v2beta1":                  true,
	"autoscaling/v2beta2":                  true,
	"networking.k8s.io/v1beta1":            true,
	"rbac.authorization.k8s.io/v1beta1":    true,
	"rbac.authorization.k8s.io/v1alpha1":   true,
	"scheduling.k8s.io/v1beta1":            true,
	"scheduling.k8s.io/v1alpha1":           true,
	"apiextensions.k8s.io/v1beta1":         true,
	"admissionregistration.k8s.io/v1beta1": true,
	"discovery.k8s.io/v1beta1":             true,
	"events.k8s.io/v1beta1":                true,
	"node.k8s.io/v1beta1":                  true,
	"node.k8s.io/v1alpha1":                 true,
	"certificates.k8s.io/v1beta1":          true,
	"coordination.k8s.io/v1beta1":          true,
	"flowcontrol.apiserver.k8s.io/v1beta1": true,
	"flowcontrol.apiserver.k8s.io/v1beta2": true,
	// DRA: v1 is served; the betas and v1alpha3 are disabled by default
	// (pkg/controlplane/instance.go) and not converted from.
	"resource.k8s.io/v1beta1":  true,
	"resource.k8s.io/v1beta2":  true,
	"resource.k8s.io/v1alpha3": true,
}

// finish takes a decoded object (obj, a pointer), with the decoder's
// issues and noted fields, into the objects, or reports why not.
func (r *Reader) finish(src Source, line int, ki *kindInfo, kind, apiVersion, version string, obj reflect.Value) {
	issues, noted := r.dec.issues, r.dec.noted
	if r.deferred != nil {
		issues, noted = slices.Clone(issues), slices.Clone(noted)
	}
	meta := obj.Elem().FieldByIndex(ki.meta).Addr().Interface().(*api.ObjectMeta)
	tm := obj.Elem().FieldByIndex(ki.typeMeta).Addr().Interface().(*api.TypeMeta)
	tm.Kind = kind
	if tm.APIVersion == "" {
		tm.APIVersion = strings.TrimPrefix(ki.group+"/"+ki.version, "/")
	}
	if !ki.namespaced {
		meta.Namespace = ""
	} else if meta.Namespace == "" {
		meta.Namespace = "default"
	}
	raw := r.raw
	r.raw = nil
	r.later(func(r *Reader) {
		r.take(src, line, ki, kind, apiVersion, version, obj, meta, tm, issues, noted)
		if _, taken := r.objs.sources[obj.Interface()]; taken && raw != nil {
			if r.objs.raw == nil {
				r.objs.raw = map[any][]byte{}
			}
			r.objs.raw[obj.Interface()] = raw
		}
	})
}

func (r *Reader) take(src Source, line int, ki *kindInfo, kind, apiVersion, version string, obj reflect.Value, meta *api.ObjectMeta, tm *api.TypeMeta, issues []fieldIssue, noted []string) {
	// The object's name in messages, made only for one: most objects
	// have none.
	name := func() string {
		if ki.namespaced {
			return kind + " " + meta.Namespace + "/" + meta.Name
		}
		return kind + " " + meta.Name
	}
	failed := false
	for _, is := range issues {
		if is.err != nil {
			failed = true
			r.errs = append(r.errs, &Error{Source: src, Line: is.line, Object: name(), Path: is.path, Err: is.err})
		} else {
			switch r.validate {
			case ValidateStrict:
				failed = true
				r.errs = append(r.errs, &Error{Source: src, Line: is.line, Object: name(), Err: errors.New("strict decoding error: " + is.msg)})
			case ValidateWarn:
				r.warnf(src, is.line, name(), "%s", is.msg)
			}
		}
	}
	if meta.Name == "" && meta.GenerateName != "" && !isStoredMeta(meta) && !failed {
		// A new object: named as the API server names it on create.
		meta.Name = r.generateName(ki, kind, meta)
	}
	if meta.Name == "" {
		failed = true
		r.errorf(src, line, name(), "metadata.name: Required value: name or generateName is required")
		if meta.GenerateName != "" {
			r.errs[len(r.errs)-1].(*Error).Err = errors.New("metadata.name: Required value: a stored object (uid, resourceVersion or creationTimestamp set) has a name; generateName is only for new objects")
		}
	}
	for _, is := range append(r.validateDRA(obj.Interface()), validateScheduling(obj.Interface())...) {
		failed = true
		r.errs = append(r.errs, &Error{Source: src, Line: line, Object: name(), Path: is.path, Err: is.err})
	}
	issues2 := validateObject(obj.Interface())
	if !failed {
		issues2 = append(validateName(kind, meta), issues2...)
	}
	for _, is := range issues2 {
		failed = true
		r.errs = append(r.errs, &Error{Source: src, Line: line, Object: name(), Path: is.path, Err: is.err})
	}
	if failed {
		return
	}
	key := objectKey{ki.group, kind, meta.Namespace, meta.Name}
	if prev, dup := r.seen[key]; dup {
		r.errorf(src, line, name(), "%s already read at %s", name(), prev)
		return
	}
	r.seen[key] = src
	r.objects++
	r.report.Objects++
	ptr := obj.Interface()
	r.objs.sources[ptr] = src
	if len(noted) > 0 {
		if r.objs.unmodelled == nil {
			r.objs.unmodelled = map[any][]string{}
		}
		r.objs.unmodelled[ptr] = slices.Clone(noted)
	}
	ki.add(&r.objs, ptr)
}

// reserve makes room in the duplicate index and the sources for n more
// objects at once, rather than by doubling as they are taken.
func (r *Reader) reserve(n int) {
	if n <= len(r.seen) {
		return
	}
	seen := make(map[objectKey]Source, len(r.seen)+n)
	maps.Copy(seen, r.seen)
	r.seen = seen
	sources := make(map[any]Source, len(r.objs.sources)+n)
	maps.Copy(sources, r.objs.sources)
	r.objs.sources = sources
}

// bigDocument reads a JSON object too large to hold from the stream s:
// the items of a List one at a time, each decoded as it is read, and the
// other fields into the generic tree. The items' effects wait until the
// object is known to be a List (its kind may come after its items, as
// kubectl writes it); if it is not one, or its last "items" is not the
// array read, the object is read as any other document, its streamed
// items as an empty array.
func (r *Reader) bigDocument(s *stream, src Source) error {
	t := s.t
	fail := func(off int64, err error) error {
		if se, ok := err.(*syntaxError); ok && off == 0 {
			off = s.jsOff + int64(se.off)
		}
		if off == 0 {
			off = s.jsOff
		}
		line := t.lineAt(off)
		return &Error{Source: src, Line: line, Err: fmt.Errorf("json: %w", err)}
	}
	if _, err := s.expect("{", "looking for beginning of value"); err != nil {
		return fail(0, err)
	}
	type entry struct {
		key      string
		v        value
		streamed bool
	}
	var entries []entry
	var items []itemApply
	if c, err := s.space(); err != nil {
		return fail(0, unexpected(err))
	} else if c == '}' {
		s.jsOff++
	} else {
		for {
			kb, off, err := s.value()
			if err != nil {
				return fail(off, err)
			}
			if kb[0] != '"' {
				return fail(off, &syntaxError{msg: "invalid character " + quoteChar(kb[0]) + " looking for beginning of object key string"})
			}
			key := unquote(kb)
			kl := int32(t.lineAt(off))
			if _, err := s.expect(":", "after object key"); err != nil {
				return fail(0, err)
			}
			c, err := s.space()
			if err != nil {
				return fail(0, unexpected(err))
			}
			if key == "items" && c == '[' {
				s.jsOff++
				var err error
				if items, err = r.streamItems(s, src, fail); err != nil {
					return err
				}
				entries = append(entries, entry{key: key, v: value{kind: kindList, line: kl}, streamed: true})
			} else {
				b, off, err := s.value()
				if err != nil {
					return fail(off, err)
				}
				v := parseValue(b, t.lineAt(off))
				v.line = kl
				entries = append(entries, entry{key: key, v: v})
			}
			if c, err := s.expect(",}", "after object key:value pair"); err != nil {
				return fail(0, err)
			} else if c == '}' {
				break
			}
		}
	}
	s.docRead(s.jsOff)
	doc := value{kind: kindMap, line: int32(src.Line)}
	streamed := false
	for _, e := range entries {
		doc.set(e.key, e.v, true)
		if e.key == "items" {
			streamed = e.streamed
		}
	}
	kind, apiVersion := doc.str("kind"), doc.str("apiVersion")
	if streamed && (kind == "List" || strings.HasSuffix(kind, "List")) {
		itemKind := ""
		if kind != "List" {
			itemKind = strings.TrimSuffix(kind, "List")
		}
		r.reserve(len(items))
		for _, f := range items {
			f(r, itemKind, apiVersion)
		}
		return nil
	}
	r.document(src, &doc, "", "")
	return nil
}

// itemApply applies a streamed item's effects on r once the List's kind
// and apiVersion are known.
type itemApply func(r *Reader, defKind, defVersion string)

// streamedItem decodes an item of a streamed List (b, valid only during
// the call) and returns what applies its effects once the List's kind and
// apiVersion are known. An item that names its own kind and apiVersion
// is decoded at once; another is kept as bytes until then. The effects
// are applied to the Reader given then, so that a worker's Reader may
// decode what the reading one applies.
func (r *Reader) streamedItem(src Source, b []byte) itemApply {
	if h := scanHeader(b); h.plain && !h.items && h.kind != "" && h.apiVersion != "" {
		var effects []func(*Reader)
		r.deferred = &effects
		r.rawDocumentHeader(src, b, h, "", "")
		r.deferred = nil
		return func(r *Reader, _, _ string) {
			for _, f := range effects {
				f(r)
			}
		}
	}
	b = bytes.Clone(b)
	return func(r *Reader, defKind, defVersion string) { r.rawDocument(src, b, defKind, defVersion) }
}

// streamItems reads the items of a streamed List, the stream at the
// first byte after its '[', through its ']'. Items are delimited here, in
// order, and decoded here or, with workers (itemWorkers), in chunks on
// the other cores by Readers of their own; their effects are returned in
// the items' order either way, so what is read, reported and refused is
// the same. fail words a syntax error at an offset.
func (r *Reader) streamItems(s *stream, src Source, fail func(int64, error) error) ([]itemApply, error) {
	t := s.t
	var items []itemApply
	if c, err := s.space(); err != nil {
		return nil, fail(0, unexpected(err))
	} else if c == ']' {
		s.jsOff++
		return nil, nil
	}
	var pool *itemPool
	if n := r.itemWorkers(); n > 1 {
		pool = newItemPool(r, n)
		defer pool.drop() // on an error; after wait, nothing is left
	}
	for i := 0; ; i++ {
		b, off, err := s.value()
		if err != nil {
			return nil, fail(off, err)
		}
		isrc := src
		isrc.Item, isrc.Line = i, t.lineAt(off)
		if pool != nil {
			pool.add(isrc, b)
		} else {
			items = append(items, r.streamedItem(isrc, b))
		}
		r.listed++
		if c, err := s.expect(",]", "after array element"); err != nil {
			return nil, fail(0, err)
		} else if c == ']' {
			break
		}
	}
	if pool != nil {
		items = pool.wait()
	}
	return items, nil
}

// rawDocument reads one JSON document or list item from its bytes (b
// has been scanned: it is one valid JSON value): straight into its typed
// object when it can, else through the generic tree.
func (r *Reader) rawDocument(src Source, b []byte, defKind, defVersion string) {
	r.rawDocumentHeader(src, b, scanHeader(b), defKind, defVersion)
}

// rawDocumentHeader is rawDocument with b's header already scanned.
func (r *Reader) rawDocumentHeader(src Source, b []byte, h header, defKind, defVersion string) {
	kind, apiVersion := h.kind, h.apiVersion
	if kind == "" {
		kind = defKind
	}
	if apiVersion == "" {
		apiVersion = defVersion
	}
	if !h.plain || h.items || kind == "" {
		v := parseValue(b, src.Line)
		r.document(src, &v, defKind, defVersion)
		return
	}
	ki, version := r.kindFor(src, src.Line, kind, apiVersion)
	if ki == nil {
		return
	}
	obj := reflect.New(ki.typ)
	r.dec.issues = r.dec.issues[:0]
	r.dec.noted = r.dec.noted[:0]
	r.dec.path.reset(0)
	fd := fastDecoder{d: r.dec, b: b, line: int32(src.Line), seen: r.seen0[:0]}
	err := fd.decode(obj.Elem(), r.dec.plan(ki.typ))
	r.seen0 = fd.seen[:0]
	if err != nil {
		v := parseValue(b, src.Line)
		r.document(src, &v, defKind, defVersion)
		return
	}
	if keepsRaw(kind) {
		r.raw = bytes.Clone(b)
	}
	r.finish(src, src.Line, ki, kind, apiVersion, version, obj)
}

// ReadFiles reads the paths (files, folders, "-" for stdin) with a new
// Reader and returns its objects and report, or every error found.
func ReadFiles(opts Options, paths ...string) (*Set, *Report, error) {
	return readFiles(context.Background(), opts, paths...)
}

// readFiles is ReadFiles stopped by ctx.
func readFiles(ctx context.Context, opts Options, paths ...string) (*Set, *Report, error) {
	r := NewReader()
	r.SetSeed(opts.Seed)
	r.SetFieldValidation(opts.Validate)
	r.SetDRAFeatures(opts.DRAFeatures)
	r.SetShareResourceLists(opts.ShareResourceLists)
	if ctx.Done() != nil {
		r.SetContext(ctx)
	}
	if opts.Progress != nil {
		r.SetProgress(opts.Progress)
	}
	for _, p := range paths {
		if err := r.ctxErr(); err != nil {
			return nil, r.Report(), err
		}
		r.ReadPath(p, opts.Recursive, opts.Stdin)
	}
	if err := r.ctxErr(); err != nil {
		return nil, r.Report(), err
	}
	if err := r.Err(); err != nil {
		return nil, r.Report(), err
	}
	// The objects and the report outlive the reader (its decoder caches
	// and duplicate index).
	objs, rep := r.objs, r.report
	return &objs, &rep, nil
}

// SkippedKinds lists the skipped kinds as "Kind×n", sorted.
func (rep *Report) SkippedKinds() []string {
	var out []string
	for k, n := range rep.Skipped {
		out = append(out, fmt.Sprintf("%s×%d", k, n))
	}
	sort.Strings(out)
	return out
}

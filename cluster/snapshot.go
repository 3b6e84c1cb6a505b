package cluster

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// Snapshot is the set of nodes the scheduler decides over, with the pods
// bound or assumed on them. One goroutine at a time may change it (AddNode,
// UpdateNode, RemoveNode, AddPod, AssumePod, UpdatePod, RemovePod) while
// any number of goroutines read it.
//
// Readers work on a View: an immutable picture of the snapshot. Nodes,
// Get, Domains and the other read methods of Snapshot each use the
// current view; a scheduling cycle that needs a consistent picture across
// several calls takes View() once and reads from it. Views are cheap: a
// view is made at most once per change, and changing the snapshot never
// modifies what a view holds. The writer copies a NodeInfo (and the
// chunk of the node list holding it, the list's small array of chunks,
// the name index, topology lists and numbered domains) the first time it changes it after
// a view was handed out, and changes it in place otherwise, so building
// a snapshot copies nothing and a view after one pod change costs a copy
// of that node, one chunk of 128 node pointers and the chunk array, not
// of the whole list.
//
// Nodes are listed in kube-scheduler's order, which decides which nodes
// a scheduling cycle evaluates when it scores only a percentage of them
// from a rotating start index. The scheduler's cache groups nodes by
// ZoneKey: zones in the order their first node was added, the nodes of a
// zone in the order they were added (a node whose zone key changes moves
// to the end of its new zone; a zone whose last node leaves is dropped).
// It lists them round-robin over the zones: the first node of each zone,
// then the second of each zone that has one, and so on. Like the
// scheduler's snapshot, which rebuilds its list only when the set of
// node names changed since the previous snapshot, a view takes this
// order only when its node names differ from the previous view's, and
// keeps the previous view's order otherwise (say after a zone change,
// or a node removed and added back, between two views). Indexes into
// Nodes (View.Index, Domains) may therefore change after any AddNode or
// RemoveNode.
//
// Pods bound to a node the snapshot does not hold are kept, as
// kube-scheduler's cache keeps pods of nodes it has not seen ("imaginary
// nodes"): they are invisible until AddNode adds their node, and then
// counted on it. RemoveNode likewise keeps the node's pods aside until
// they are removed or the node comes back.
//
// The zero Snapshot is an empty snapshot ready to use; NewSnapshot
// builds one from nodes and pods.
type Snapshot struct {
	mu sync.Mutex

	// epoch is bumped whenever a view is handed out. A NodeInfo whose
	// cow field, or a structure whose epoch field, differs from epoch may
	// be held by a reader and is copied before it changes.
	epoch uint64
	// gen is the generation of the snapshot, the last number it took
	// from its lineage's sequence.
	gen int64
	// line is the lineage the snapshot shares with its forks (Fork):
	// the sequences its epochs and generations come from, so that no two
	// snapshots of a lineage stamp different states alike.
	line *lineage
	// lid orders the locks of two snapshots of a lineage (Reset).
	lid uint64
	// writes counts the changes (Changes).
	writes uint64
	// shared marks the writer-only structures a fork still shares with
	// its origin; each is copied before its first change (see fork.go).
	shared sharedParts

	// nodes and index are the nodes and their positions. A view gets
	// them in kube-scheduler's order (arrange); between views an added
	// node goes last and a removed one's place goes to the last node.
	// The list is in chunks (nodeVec): the writer copies only the chunks
	// it changes after a view was handed out.
	nodes      nodeVec
	index      map[string]int
	indexEpoch uint64

	// tree groups the node names by zone as the scheduler's cache does.
	tree zoneTree
	// relayout is set when nodes were added or removed since the last
	// view; setDiff counts the names whose presence differs from the
	// last view's.
	relayout bool
	setDiff  int
	// last is the last view handed out.
	last *View

	// pods maps every pod to where it is; uids maps UIDs to pods. Both
	// are layered, so that a fork shares them.
	pods layered[podKey, podEntry]
	uids layered[string, podKey]
	// orphans are the pods of nodes not in the snapshot, by node name.
	orphans map[string][]*PodInfo

	// images counts the nodes reporting each image name, with the size
	// first seen for it; dirtyImages are the names whose count changed
	// since the last view.
	images      map[string]imageCount
	dirtyImages map[string]struct{}
	staleImages bool
	seen        map[string]struct{} // scratch set of countImages
	reqs        api.ResourceList    // scratch list of pod requests

	// topo holds the topology domains of the label keys asked for so
	// far, kept up to date as nodes come and go.
	topo map[string]*domainIndex
	// topoIDs holds the numbered domains (Topology) of the label keys
	// asked for so far, kept up to date as nodes come, go and change;
	// slots is the number of node slots handed out, freeSlots those
	// free again.
	topoIDs   map[string]*Topology
	slots     int32
	freeSlots []int32
	// nodeSet changes whenever a node is added, removed or updated.
	nodeSet int64

	// podIdx lists the pods of the nodes by namespace and label (see
	// podindex.go); nil until a view asks for it.
	podIdx *podIndex
	// affinityPods counts the pods of the nodes with pod (anti-)affinity,
	// kept as pods and nodes come and go (indexAdd, indexRemove).
	affinityPods affinityCounts

	// objects is the writer's object store (nil until the first
	// object); a view shares it until the writer's next object change.
	objects *Objects

	// view is the current view, nil when the snapshot changed since.
	view *View

	// logTag and logPos are the log of node changes (see changeLog):
	// the positions of the nodes changed in place since the log began.
	// logTag is nil when positions moved since the last view; the next
	// view begins a new log.
	logTag *logTag
	logPos []int32
}

type podKey struct{ namespace, name string }

type podEntry struct {
	info *PodInfo
	node string
}

func keyOf(pod *api.Pod) podKey { return podKey{podNamespace(pod), pod.Name} }

// NewSnapshot builds a snapshot of nodes with pods bound to them (by
// pod.Spec.NodeName). It fails on a nil or unnamed node, a duplicate
// node name, a pod without a node name, a pod that AddPod rejects, or a
// duplicate pod; the error names the object. Pods of nodes not in nodes
// are kept aside as AddPod describes. Nodes lists the nodes as
// kube-scheduler does after adding them one by one in the order given
// (see Snapshot). The result does not depend on the order of pods, nor,
// apart from the order of Nodes (and so the indexes of View.Index and
// Domains), on that of nodes.
func NewSnapshot(nodes []*api.Node, pods []*api.Pod) (*Snapshot, error) {
	return NewSnapshotContext(context.Background(), nodes, pods)
}

// NewSnapshotContext is NewSnapshot that stops early when ctx is done:
// it then returns ctx.Err(). Building a snapshot of many pods takes a
// while; a caller with a deadline need not wait for all of it.
func NewSnapshotContext(ctx context.Context, nodes []*api.Node, pods []*api.Pod) (*Snapshot, error) {
	s := &Snapshot{}
	s.init(len(nodes), len(pods))
	for _, node := range nodes {
		if err := s.addNode(node); err != nil {
			return nil, err
		}
	}
	infos, errs := podInfosParallel(ctx, pods)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, pod := range pods {
		if i%512 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
		if pod.Spec.NodeName == "" {
			return nil, fmt.Errorf("%w pod %s: no spec.nodeName", ErrInvalid, podName(pod))
		}
		if err := s.place(pod, infos[i], pod.Spec.NodeName); err != nil {
			return nil, err
		}
	}
	// The first view's order and image states, as the scheduler's
	// first snapshot update makes them: the first decision then does
	// not pay for them (View makes them only when something changed).
	s.arrange()
	s.refreshImages()
	// The Topologies of the keys the default plugins read (the default
	// spread constraints, most affinity terms), kept from now on, so
	// that the first decision does not number them.
	if s.topoIDs == nil {
		s.topoIDs = map[string]*Topology{}
	}
	for _, key := range []string{affinity.LabelHostname, affinity.LabelTopologyZone} {
		t := buildTopology(&s.nodes, key)
		t.epoch, t.dom.epoch = s.epoch, s.epoch
		s.topoIDs[key] = t
	}
	return s, nil
}

// podInfosParallel derives the PodInfos of many pods on GOMAXPROCS
// goroutines; each pod's error, if any, is at its index. Once ctx is
// done the workers stop and the rest are left nil.
func podInfosParallel(ctx context.Context, pods []*api.Pod) ([]*PodInfo, []error) {
	infos := make([]*PodInfo, len(pods))
	errs := make([]error, len(pods))
	const chunk = 512
	workers := min(runtime.GOMAXPROCS(0), (len(pods)+chunk-1)/chunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := make(api.ResourceList, 8)
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= len(pods) || ctx.Err() != nil {
					return
				}
				for i := start; i < min(start+chunk, len(pods)); i++ {
					infos[i], errs[i] = newPodInfoForSnapshot(pods[i], scratch)
				}
			}
		}()
	}
	wg.Wait()
	return infos, errs
}

// init readies a zero Snapshot for writing, sized for nodes and pods.
func (s *Snapshot) init(nodes, pods int) {
	if s.epoch != 0 {
		return
	}
	s.line = &lineage{}
	s.epoch = s.line.nextEpoch()
	s.index = make(map[string]int, nodes)
	s.nodes = nodeVec{chunks: make([]*nodeChunk, 0, (nodes+chunkLen-1)/chunkLen), epoch: s.epoch}
	s.pods = makeLayered[podKey, podEntry](pods)
	s.uids = makeLayered[string, podKey](pods)
	s.images = make(map[string]imageCount)
	s.dirtyImages = make(map[string]struct{})
	s.orphans = make(map[string][]*PodInfo)
	s.topo = make(map[string]*domainIndex)
	s.indexEpoch = s.epoch
	s.podIdx = &podIndex{lists: make(map[labelKey]*postings)}
}

// scratch returns the writer's scratch resource list.
func (s *Snapshot) scratch() api.ResourceList {
	if s.reqs == nil {
		s.reqs = make(api.ResourceList, 8)
	}
	return s.reqs
}

// nextGen returns a new generation number.
func (s *Snapshot) nextGen() int64 {
	s.gen = s.line.nextGen()
	return s.gen
}

// changed records a change: the current view is stale.
func (s *Snapshot) changed() {
	s.view = nil
	s.writes++
}

// mutable returns node i for changing, copying it first if a reader may
// hold it, and stamps it with a new generation.
func (s *Snapshot) mutable(i int) *NodeInfo {
	ni := s.nodes.at(i)
	if ni.cow != s.epoch {
		ni = ni.cowClone()
		ni.cow = s.epoch
		s.nodes.set(i, ni, s.epoch)
	}
	ni.Generation = s.nextGen()
	s.changed()
	s.logChange(i)
	return ni
}

// ownIndex makes the name index private to the writer.
func (s *Snapshot) ownIndex() {
	if s.indexEpoch != s.epoch {
		s.index = maps.Clone(s.index)
		s.indexEpoch = s.epoch
	}
}

// Generation returns the snapshot's generation; it grows with every
// change, and every NodeInfo changed gets a new one from the same
// sequence, so a NodeInfo's Generation never exceeds it.
func (s *Snapshot) Generation() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// Changes returns the number of changes made to the snapshot so far:
// every call that changes what it holds (nodes, pods, objects, Reset)
// counts, and taking views, which may refresh image states, does not.
// Comparing two readings tells whether the snapshot changed between them.
func (s *Snapshot) Changes() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// NumNodes returns the number of nodes.
func (s *Snapshot) NumNodes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nodes.len()
}

// ImageNodes returns how many of the snapshot's nodes report an image
// under name in node.status.images (the names ImageStates holds): the
// NumNodes of that image's state on each of them, 0 when none reports it.
func (s *Snapshot) ImageNodes(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.images[name].nodes
}

// NumPods returns the number of pods the snapshot holds, including pods
// of nodes it does not hold.
func (s *Snapshot) NumPods() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pods.len()
}

// Nodes returns the NodeInfos of the current view, in kube-scheduler's
// order: round-robin over zones as the Snapshot documentation describes.
// The slice and the NodeInfos are immutable; do not modify them.
func (s *Snapshot) Nodes() []*NodeInfo { return s.View().Nodes() }

// List is Nodes, by upstream's name; it is in the same order.
func (s *Snapshot) List() []*NodeInfo { return s.View().Nodes() }

// Get returns the named node of the current view.
func (s *Snapshot) Get(name string) (*NodeInfo, bool) { return s.View().Get(name) }

// Domains returns the topology domains of a label key in the current
// view; see View.Domains.
func (s *Snapshot) Domains(key string) map[string][]int { return s.View().Domains(key) }

// HavePodsWithAffinityNodes returns the nodes of the current view with
// at least one pod with inter-pod affinity or anti-affinity.
func (s *Snapshot) HavePodsWithAffinityNodes() []*NodeInfo {
	return s.View().HavePodsWithAffinityNodes()
}

// HavePodsWithRequiredAntiAffinityNodes returns the nodes of the current
// view with at least one pod with required anti-affinity.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityNodes() []*NodeInfo {
	return s.View().HavePodsWithRequiredAntiAffinityNodes()
}

// Pod returns a pod the snapshot holds and the name of its node.
func (s *Snapshot) Pod(namespace, name string) (*PodInfo, string, bool) {
	if namespace == "" {
		namespace = "default"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.pods.get(podKey{namespace, name})
	return e.info, e.node, ok
}

// View returns the current view, making one if the snapshot changed
// since the last. It puts the nodes in kube-scheduler's order (see
// Snapshot) and brings image counts up to date first.
func (s *Snapshot) View() *View {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if s.view != nil {
		return s.view
	}
	s.arrange()
	s.refreshImages()
	if s.objects == nil {
		s.objects = &Objects{epoch: s.epoch}
	}
	v := &View{
		objects:    s.objects,
		nodes:      s.nodes,
		index:      s.index,
		generation: s.gen,
		snap:       s,
		nodeSet:    s.nodeSet,
		affinity:   s.affinityPods,
	}
	if s.logTag == nil {
		s.logTag, s.logPos = new(logTag), nil
	}
	v.logTag, v.changes = s.logTag, s.logPos[:len(s.logPos):len(s.logPos)]
	if len(s.topo) > 0 {
		v.topo = maps.Clone(s.topo)
	}
	if len(s.topoIDs) > 0 {
		v.topoIDs = maps.Clone(s.topoIDs)
	}
	s.view = v
	s.last = v
	// From now on everything above is shared with readers.
	s.epoch = s.line.nextEpoch()
	return v
}

// validateNode checks a node before it enters the snapshot.
func validateNode(node *api.Node) error {
	if node == nil {
		return fmt.Errorf("%w node: nil", ErrInvalid)
	}
	if node.Name == "" {
		return fmt.Errorf("%w node: empty name", ErrInvalid)
	}
	for name, q := range node.Status.Allocatable {
		if err := checkQuantity(name, q); err != nil {
			return fmt.Errorf("%w node %q: allocatable: %w", ErrInvalid, node.Name, err)
		}
	}
	return nil
}

// AddNode adds a node, with any pods already bound to it. It fails if
// the node is nil or unnamed, already present, or has a negative or
// overflowing allocatable quantity.
func (s *Snapshot) AddNode(node *api.Node) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	return s.addNode(node)
}

func (s *Snapshot) addNode(node *api.Node) error {
	if err := validateNode(node); err != nil {
		return err
	}
	if _, dup := s.index[node.Name]; dup {
		return fmt.Errorf("%w node %q: already in the snapshot", ErrInvalid, node.Name)
	}
	ni := &NodeInfo{cow: s.epoch, slot: s.newSlot() + 1}
	ni.setNodeObject(node)
	ni.Allocatable = ResourceFromList(node.Status.Allocatable)
	s.countImages(node, +1)
	ni.setImageStates(nil, nil) // built by refreshImages
	s.staleImages = true
	if ps, ok := s.orphans[node.Name]; ok {
		for _, p := range ps {
			ni.addPod(p)
		}
		s.ownOrphans()
		delete(s.orphans, node.Name)
	}
	ni.Generation = s.nextGen()
	for _, p := range ni.Pods {
		s.indexAdd(p, ni.slot)
	}

	s.ownIndex()
	s.ownTree()
	i := s.nodes.len()
	s.restartLog()
	s.nodes.push(ni, s.epoch)
	s.index[node.Name] = i
	s.tree.add(s.tree.key(node), node.Name)
	s.noteMembership(node.Name, true)
	s.nodeSet++
	for key, d := range s.topo {
		if v, ok := node.Labels[key]; ok {
			s.ownDomain(key, d).insert(v, i)
		}
	}
	s.setTopologies(int(ni.slot)-1, node)
	s.changed()
	return nil
}

// UpdateNode replaces a node's object: its allocatable, labels and
// images. Its pods stay. If its ZoneKey changes, the node moves to the
// end of its new zone in the order views take up once the set of nodes
// changes (see Snapshot). It fails if the node is not in the snapshot or
// is invalid as for AddNode.
func (s *Snapshot) UpdateNode(node *api.Node) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if err := validateNode(node); err != nil {
		return err
	}
	i, ok := s.index[node.Name]
	if !ok {
		return fmt.Errorf("node %q: not in the snapshot", node.Name)
	}
	old := s.nodes.at(i).node
	s.ownTree()
	ni := s.mutable(i)
	ni.setNodeObject(node)
	ni.Allocatable = ResourceFromList(node.Status.Allocatable)
	s.countImages(old, -1)
	s.countImages(node, +1)
	ni.setImageStates(nil, nil)
	s.staleImages = true
	if oz, nz := s.tree.key(old), s.tree.key(node); oz != nz {
		s.tree.remove(oz, node.Name)
		s.tree.add(nz, node.Name)
		if s.last == nil {
			// No view took the order NewSnapshot made ahead: the first
			// takes the zones' order as they are then.
			s.relayout = true
		}
	}
	s.nodeSet++
	for key, d := range s.topo {
		ov, oldHas := old.Labels[key]
		nv, newHas := node.Labels[key]
		if ov == nv && oldHas == newHas {
			continue
		}
		d = s.ownDomain(key, d)
		if oldHas {
			d.remove(ov, i)
		}
		if newHas {
			d.insert(nv, i)
		}
	}
	s.setTopologies(int(ni.slot)-1, node)
	return nil
}

// RemoveNode removes the named node. Its pods are kept aside and come
// back if the node is added again. Positions in Nodes may change in the
// next view (see Snapshot).
func (s *Snapshot) RemoveNode(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	i, ok := s.index[name]
	if !ok {
		return fmt.Errorf("node %q: not in the snapshot", name)
	}
	ni := s.nodes.at(i)
	s.ownTree()
	if len(ni.Pods) > 0 {
		s.ownOrphans()
		s.orphans[name] = append([]*PodInfo(nil), ni.Pods...)
	}
	s.countImages(ni.node, -1)
	s.ownIndex()
	last := s.nodes.len() - 1
	moved := s.nodes.at(last)
	for key, d := range s.topo {
		v, has := ni.node.Labels[key]
		mv, movedHas := moved.node.Labels[key]
		if !has && (last == i || !movedHas) {
			continue
		}
		d = s.ownDomain(key, d)
		if has {
			d.remove(v, i)
		}
		if last != i && movedHas {
			d.remove(mv, last)
			d.insert(mv, i)
		}
	}
	s.setTopologies(int(ni.slot)-1, nil)
	s.freeSlots = append(s.freeSlots, ni.slot-1)
	s.restartLog()
	s.nodes.set(i, moved, s.epoch)
	s.nodes.pop(s.epoch)
	if last != i {
		s.index[moved.node.Name] = i
	}
	delete(s.index, name)
	s.tree.remove(s.tree.key(ni.node), name)
	s.noteMembership(name, false)
	s.nodeSet++
	s.nextGen()
	for _, p := range ni.Pods {
		s.indexRemove(p)
	}
	s.changed()
	return nil
}

// imageCount is how many of the snapshot's nodes report an image name,
// and the size of the image as first seen: kube-scheduler's cache keeps
// one state per name, created with the size of the first node (in the
// order nodes are added) to report it and kept while any node reports it,
// so every node's ImageStates carries that size, whatever its own report.
type imageCount struct {
	nodes int
	size  int64
}

// countImages adds sign to the node count of each image name the node
// reports (once per name; a new name takes the node's size for it) and
// marks the names dirty.
func (s *Snapshot) countImages(node *api.Node, sign int) {
	if len(node.Status.Images) == 0 {
		return
	}
	s.ownImages()
	if s.seen == nil {
		s.seen = make(map[string]struct{})
	}
	clear(s.seen)
	for i := range node.Status.Images {
		for _, name := range node.Status.Images[i].Names {
			if _, dup := s.seen[name]; dup {
				continue
			}
			s.seen[name] = struct{}{}
			c, ok := s.images[name]
			if !ok {
				c.size = node.Status.Images[i].SizeBytes
			}
			c.nodes += sign
			if c.nodes <= 0 {
				delete(s.images, name)
			} else {
				s.images[name] = c
			}
			s.dirtyImages[name] = struct{}{}
		}
	}
}

// refreshImages rebuilds the image states of the nodes whose images are
// new or hold an image whose count changed. A node that reports the same
// images as the node before it shares that node's map (maps are never
// modified, only replaced), so a pool of identical nodes holds one map and
// ImageLocality scores its nodes alike.
func (s *Snapshot) refreshImages() {
	if len(s.dirtyImages) == 0 && !s.staleImages {
		return
	}
	count := func(name string) (int, int64) { c := s.images[name]; return c.nodes, c.size }
	// A view's refresh of image states is no change of the snapshot.
	defer func(n uint64) { s.writes = n }(s.writes)
	var prev *NodeInfo
	for i := range s.nodes.len() {
		ni := s.nodes.at(i)
		stale := ni.ImageStates == nil && len(ni.node.Status.Images) > 0
		if !stale && len(s.dirtyImages) > 0 {
			for name := range ni.ImageStates {
				if _, ok := s.dirtyImages[name]; ok {
					stale = true
					break
				}
			}
		}
		if stale {
			if prev != nil && prev.ImageStates != nil && sameImages(prev.node.Status.Images, ni.node.Status.Images) {
				s.mutable(i).setImageStates(prev.ImageStates, prev.images)
			} else {
				m := nodeImageStates(ni.node, count)
				s.mutable(i).setImageStates(m, newSealedImageIndex(m))
			}
			ni = s.nodes.at(i)
		}
		prev = ni
	}
	clear(s.dirtyImages)
	s.staleImages = false
}

// sameImages reports whether two nodes report the same images: the same
// names and sizes in the same order.
func sameImages(a, b []api.ContainerImage) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i].SizeBytes != b[i].SizeBytes || !slices.Equal(a[i].Names, b[i].Names) {
			return false
		}
	}
	return true
}

// AddPod adds a pod bound to pod.Spec.NodeName. If that node is not in
// the snapshot the pod is kept aside and counted once the node is added.
// It fails, changing nothing, if the pod is nil, has no name or node
// name, has a negative or overflowing quantity (NewPodInfoChecked),
// has the namespace and name or the UID of a pod already in the
// snapshot, or would overflow the node's requested sums.
func (s *Snapshot) AddPod(pod *api.Pod) error {
	if pod != nil && pod.Spec.NodeName == "" {
		return fmt.Errorf("%w pod %s: no spec.nodeName; use AssumePod", ErrInvalid, podName(pod))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	return s.addPod(pod, nil, "")
}

// AssumePod adds a pod to nodeName as the scheduler does once it picked
// the node, before binding; the pod object is not modified, and its
// spec.nodeName is ignored. It fails as AddPod does, and if nodeName is
// empty.
func (s *Snapshot) AssumePod(pod *api.Pod, nodeName string) error {
	if nodeName == "" {
		return fmt.Errorf("%w: AssumePod with empty node name", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	return s.addPod(pod, nil, nodeName)
}

// AddPodInfo adds a PodInfo made by NewPodInfo or NewPodInfoChecked to
// nodeName, or to its pod's spec.nodeName when nodeName is empty. The pod
// is validated as by AddPod.
func (s *Snapshot) AddPodInfo(p *PodInfo, nodeName string) error {
	if p == nil {
		return fmt.Errorf("%w pod: nil PodInfo", ErrInvalid)
	}
	if nodeName == "" && p.Pod != nil {
		nodeName = p.Pod.Spec.NodeName
	}
	if nodeName == "" && p.Pod != nil {
		return fmt.Errorf("%w pod %s: no node name", ErrInvalid, podName(p.Pod))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	return s.addPod(p.Pod, p, nodeName)
}

// addPod validates and adds pod (with p if already made) to nodeName, or
// to pod.Spec.NodeName if nodeName is empty.
func (s *Snapshot) addPod(pod *api.Pod, p *PodInfo, nodeName string) error {
	if p == nil {
		var err error
		if p, err = newPodInfoForSnapshot(pod, s.scratch()); err != nil {
			return err
		}
	} else {
		if err := validatePod(pod); err != nil {
			return err
		}
		if err := checkTotals(p); err != nil {
			return fmt.Errorf("pod %s: %w", podName(pod), err)
		}
	}
	if nodeName == "" {
		nodeName = pod.Spec.NodeName
	}
	return s.place(pod, p, nodeName)
}

// place adds a validated pod to nodeName unless it is a duplicate or
// would overflow the node's sums.
func (s *Snapshot) place(pod *api.Pod, p *PodInfo, nodeName string) error {
	k := keyOf(pod)
	if e, dup := s.pods.get(k); dup {
		return fmt.Errorf("%w pod %s: already in the snapshot (on node %q)", ErrInvalid, podName(pod), e.node)
	}
	if pod.UID != "" {
		if other, dup := s.uids.get(pod.UID); dup {
			return fmt.Errorf("%w pod %s: uid %q already used by pod %s/%s", ErrInvalid, podName(pod), pod.UID, other.namespace, other.name)
		}
	}
	if i, ok := s.index[nodeName]; ok {
		if err := fits(s.nodes.at(i), p); err != nil {
			return err
		}
		ni := s.mutable(i)
		ni.addPod(p)
		s.indexAdd(p, ni.slot)
	} else {
		s.ownOrphans()
		s.orphans[nodeName] = append(s.orphans[nodeName], p)
	}
	s.writes++ // a pod of a node not held changes no NodeInfo
	s.pods.put(k, podEntry{info: p, node: nodeName})
	if pod.UID != "" {
		s.uids.put(pod.UID, k)
	}
	return nil
}

// fits checks that adding p to ni overflows no sum.
func fits(ni *NodeInfo, p *PodInfo) error {
	if ni.Requested.addOverflows(p.Requests) ||
		addOverflows(ni.NonZeroRequested.MilliCPU, p.NonZeroMilliCPU) ||
		addOverflows(ni.NonZeroRequested.Memory, p.NonZeroMemory) {
		return fmt.Errorf("%w pod %s: requests overflow the sums of node %q", ErrInvalid, podName(p.Pod), ni.Name())
	}
	return nil
}

// RemovePod removes a pod, found by namespace and name; if both the
// given pod and the stored one have a UID they must match. It fails if
// the snapshot does not hold the pod.
func (s *Snapshot) RemovePod(pod *api.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w pod: nil", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	k, e, err := s.lookup(pod)
	if err != nil {
		return err
	}
	s.detach(k, e)
	return nil
}

func (s *Snapshot) lookup(pod *api.Pod) (podKey, podEntry, error) {
	k := keyOf(pod)
	e, ok := s.pods.get(k)
	if !ok || (pod.UID != "" && e.info.Pod.UID != "" && pod.UID != e.info.Pod.UID) {
		return k, e, fmt.Errorf("pod %s (uid %q): not in the snapshot", podName(pod), pod.UID)
	}
	return k, e, nil
}

// detach removes a pod known to be in the snapshot.
func (s *Snapshot) detach(k podKey, e podEntry) {
	if i, ok := s.index[e.node]; ok {
		p, err := s.mutable(i).removePod(e.info.Pod)
		if err != nil {
			panic("cluster: pod index out of sync: " + err.Error())
		}
		s.indexRemove(p)
	} else {
		s.ownOrphans()
		o := s.orphans[e.node]
		o = removeAt(o, indexOfPodInfo(o, e.info))
		if len(o) == 0 {
			delete(s.orphans, e.node)
		} else {
			s.orphans[e.node] = o
		}
	}
	s.writes++
	s.pods.del(k)
	if uid := e.info.Pod.UID; uid != "" {
		s.uids.del(uid)
	}
}

// UpdatePod replaces oldPod (found as by RemovePod) with newPod, which
// must have the same namespace and name. newPod goes to its
// spec.nodeName, or stays on oldPod's node when that is empty (an
// assumed pod). It fails, changing nothing, if oldPod is not in the
// snapshot or newPod is rejected as by AddPod.
func (s *Snapshot) UpdatePod(oldPod, newPod *api.Pod) error {
	if oldPod == nil {
		return fmt.Errorf("%w pod: nil", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	p, err := newPodInfoForSnapshot(newPod, s.scratch())
	if err != nil {
		return err
	}
	k, e, err := s.lookup(oldPod)
	if err != nil {
		return err
	}
	if keyOf(newPod) != k {
		return fmt.Errorf("%w: update of pod %s to a pod named %s", ErrInvalid, podName(oldPod), podName(newPod))
	}
	if newPod.UID != "" {
		if other, dup := s.uids.get(newPod.UID); dup && other != k {
			return fmt.Errorf("%w pod %s: uid %q already used by pod %s/%s", ErrInvalid, podName(newPod), newPod.UID, other.namespace, other.name)
		}
	}
	nodeName := newPod.Spec.NodeName
	if nodeName == "" {
		nodeName = e.node
	}
	if i, ok := s.index[nodeName]; ok {
		ni := s.nodes.at(i)
		if nodeName == e.node {
			tmp := &NodeInfo{Requested: ni.Requested.Clone(), NonZeroRequested: ni.NonZeroRequested}
			tmp.Requested.Sub(e.info.Requests)
			tmp.NonZeroRequested.MilliCPU -= e.info.NonZeroMilliCPU
			tmp.NonZeroRequested.Memory -= e.info.NonZeroMemory
			tmp.setNodeObject(ni.node)
			ni = tmp
		}
		if err := fits(ni, p); err != nil {
			return err
		}
	}
	s.detach(k, e)
	if err := s.addPod(newPod, p, nodeName); err != nil {
		panic("cluster: UpdatePod checked add failed: " + err.Error())
	}
	return nil
}

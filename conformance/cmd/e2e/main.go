package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/schedkit/schedkit/conformance/internal/controlplane"
)

type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(s string) error { *f = append(*f, strings.Split(s, ",")...); return nil }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var paths files
	fs.Var(&paths, "f", "manifest file or folder (repeatable, comma lists)")
	config := fs.String("config", "", "KubeSchedulerConfiguration file for both schedulers")
	quiet := fs.Duration("quiet", 3*time.Second, "settled when nothing changed for this long")
	timeout := fs.Duration("timeout", 3*time.Minute, "bound on waiting for the cluster to settle")
	known := fs.String("known", "", "file of the known disagreements (prefixes up to the values)")
	verbose := fs.Bool("v", false, "log the control plane's steps and klog's output")
	trace := fs.Bool("trace", false, "print each step of the lockstep replay on stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(paths) == 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: e2e -f PATH [-f PATH...] [--config FILE] [--known FILE]")
		return 2
	}
	logf := func(format string, a ...any) {
		if *verbose {
			fmt.Fprintf(stderr, "e2e: "+format+"\n", a...)
		}
	}
	if !*verbose {
		silenceKlog()
	}
	ctx := context.Background()

	// Bad input is what schedkit's reader refuses (its error names file,
	// line and field) or what kubectl's decoder cannot read.
	sk, err := skLoad(ctx, paths, *config)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	defer sk.Close()
	objs, err := readObjects(paths)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	var schedCfg []byte
	if *config != "" {
		if schedCfg, err = os.ReadFile(*config); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 2
		}
	}
	opts := controlplane.Options{Logf: logf}
	if schedCfg != nil {
		if opts.SchedulerConfig, err = controlplane.DecodeSchedulerConfig(schedCfg); err != nil {
			fmt.Fprintf(stderr, "error: %s: %v\n", *config, err)
			return 2
		}
	}

	if n := sk.NumNodes(); n > 100 && !scoresAll(opts.SchedulerConfig) {
		fmt.Fprintf(stderr, "note: %d nodes and percentageOfNodesToScore is not 100: kube-scheduler filters a rotating sample of them, which the lockstep cannot follow; placements may disagree (see testdata/e2e/score-all.yaml)\n", n)
	}
	t0 := time.Now()
	cp, err := controlplane.Start(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "error: control plane: %v\n", err)
		return 2
	}
	startTime := time.Since(t0)
	defer cp.Stop()

	watchCtx, stopWatch := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { stopWatch(); wg.Wait() }()
	rec, err := startRecorder(watchCtx, cp.Client(), &wg)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	if err := provisioner(watchCtx, cp.Client(), &wg); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	ap, err := newApplier(cp, logf)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	t1 := time.Now()
	verdicts := ap.applyAll(ctx, objs)
	applyTime := time.Since(t1)
	t2 := time.Now()
	settled := settle(ctx, rec, cp, *quiet, *timeout)
	// Then the pods the input marks to delete once the cluster settled
	// go, as a user deletes them, and the cluster settles again.
	userDeleted := map[string]bool{}
	if dels := deleteAfterSettle(objs); len(dels) > 0 {
		zero := int64(0)
		for _, o := range dels {
			ns := o.u.GetNamespace()
			if ns == "" {
				ns = metav1.NamespaceDefault
			}
			userDeleted[ns+"/"+o.u.GetName()] = true
			if err := cp.Client().CoreV1().Pods(ns).Delete(ctx, o.u.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				logf("delete pod %s/%s: %v", ns, o.u.GetName(), err)
			}
		}
		settled = settle(ctx, rec, cp, *quiet, *timeout) && settled
	}
	settleTime := time.Since(t2)
	watched, final, _ := rec.snapshot()
	events := timeline(watched, cp.Cycles(), userDeleted)

	c := &comparer{}
	if *trace {
		c.trace = func(format string, a ...any) { fmt.Fprintf(stderr, "trace: "+format+"\n", a...) }
	}
	c.compareBindings(events, final)
	if err := compareAll(ctx, c, cp, sk, verdicts, events, final, rec.deleted()); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	for _, w := range sk.Warnings() {
		logf("schedkit warning: %s", w)
	}
	lines := c.out
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].cause < lines[j].cause })
	for _, d := range lines {
		fmt.Fprintln(stdout, d)
	}
	bound := 0
	for _, p := range final {
		if p.Spec.NodeName != "" {
			bound++
		}
	}
	causes := map[string]int{}
	for _, d := range lines {
		causes[d.cause]++
	}
	var parts []string
	for k, n := range causes {
		parts = append(parts, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(parts)
	note := ""
	if !settled {
		note = " (not settled: timeout)"
	}
	fmt.Fprintf(stdout, "summary: %d disagreement(s) [%s]; %d objects applied (%d rejected), %d pods (%d bound), %d bindings replayed; control plane start %v, apply %v, settle %v%s\n",
		len(lines), strings.Join(parts, ", "), len(verdicts), rejected(verdicts), len(final), bound, countBinds(events),
		startTime.Round(10*time.Millisecond), applyTime.Round(10*time.Millisecond), settleTime.Round(10*time.Millisecond), note)
	if *known != "" {
		return compareKnown(*known, lines, stdout, stderr)
	}
	if len(lines) > 0 || !settled {
		return 1
	}
	return 0
}

// scoresAll reports whether cfg makes every profile filter and score
// every node: percentageOfNodesToScore 100, globally or in each profile.
func scoresAll(cfg *kconfig.KubeSchedulerConfiguration) bool {
	if cfg == nil {
		return false
	}
	global := cfg.PercentageOfNodesToScore != nil && *cfg.PercentageOfNodesToScore == 100
	for _, p := range cfg.Profiles {
		if p.PercentageOfNodesToScore != nil {
			if *p.PercentageOfNodesToScore != 100 {
				return false
			}
		} else if !global {
			return false
		}
	}
	return global || len(cfg.Profiles) > 0
}

func rejected(vs []verdict) int {
	n := 0
	for _, v := range vs {
		if v.err != "" {
			n++
		}
	}
	return n
}

func countBinds(evs []podEvent) int {
	n := 0
	for _, e := range evs {
		if e.kind == evBind {
			n++
		}
	}
	return n
}

// settle waits until no pod changed and the controllers' objects kept
// their resource versions for quiet, or timeout.
func settle(ctx context.Context, rec *recorder, cp *controlplane.ControlPlane, quiet, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	last, lastChange := "", time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		fp := fingerprint(ctx, cp)
		_, _, podChange := rec.snapshot()
		if fp != last {
			last, lastChange = fp, time.Now()
		}
		if podChange.After(lastChange) {
			lastChange = podChange
		}
		if time.Since(lastChange) >= quiet {
			return true
		}
	}
	return false
}

// fingerprint is the resource versions of the objects controllers write.
func fingerprint(ctx context.Context, cp *controlplane.ControlPlane) string {
	cs := cp.Client()
	var b strings.Builder
	add := func(l metav1.ListInterface, err error, items func() []metav1.Object) {
		if err != nil {
			b.WriteString("err;")
			return
		}
		for _, o := range items() {
			b.WriteString(o.GetResourceVersion())
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	rs, err := cs.AppsV1().ReplicaSets("").List(ctx, metav1.ListOptions{})
	add(rs, err, func() []metav1.Object { return objs(rs.Items) })
	cr, err := cs.AppsV1().ControllerRevisions("").List(ctx, metav1.ListOptions{})
	add(cr, err, func() []metav1.Object { return objs(cr.Items) })
	pvc, err := cs.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	add(pvc, err, func() []metav1.Object { return objs(pvc.Items) })
	rc, err := cs.ResourceV1().ResourceClaims("").List(ctx, metav1.ListOptions{})
	add(rc, err, func() []metav1.Object { return objs(rc.Items) })
	return b.String()
}

// objs is the metadata of each item.
func objs[T any, PT interface {
	*T
	metav1.Object
}](items []T) []metav1.Object {
	out := make([]metav1.Object, len(items))
	for i := range items {
		out[i] = PT(&items[i])
	}
	return out
}

// compareAll runs every comparison.
func compareAll(ctx context.Context, c *comparer, cp *controlplane.ControlPlane, sk *skCluster, verdicts []verdict, events []podEvent, final, gone map[string]*v1.Pod) error {
	cs := cp.Client()
	evs, err := cs.CoreV1().Events("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	skipped, upRejected := c.compareAdmission(verdicts, sk, evs.Items)

	// Objects the controllers made.
	rs, err := cs.AppsV1().ReplicaSets("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	c.compareObjects("ReplicaSet", ownedReplicaSets(rs.Items), sk, nil, nil)
	var names []string
	crs, err := cs.AppsV1().ControllerRevisions("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	names = nil
	for _, r := range crs.Items {
		names = append(names, r.Namespace+"/"+r.Name)
	}
	c.compareObjects("ControllerRevision", names, sk, sk.InputControllerRevisions(), nil)
	claims, err := cs.ResourceV1().ResourceClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	claimRename := map[string]string{}
	names = nil
	for _, r := range claims.Items {
		names = append(names, r.Namespace+"/"+r.Name)
	}

	// Pods: upstream's in binding order, then the pending ones.
	bindOrder := map[string]int{}
	for i, e := range events {
		if e.kind == evBind {
			if _, ok := bindOrder[e.key]; !ok {
				bindOrder[e.key] = i
			}
		}
	}
	var up []*v1.Pod
	for _, p := range final {
		up = append(up, p)
	}
	for k, p := range gone {
		if final[k] == nil {
			up = append(up, p)
		}
	}
	sort.Slice(up, func(i, j int) bool {
		ki, kj := up[i].Namespace+"/"+up[i].Name, up[j].Namespace+"/"+up[j].Name
		oi, iok := bindOrder[ki]
		oj, jok := bindOrder[kj]
		if iok != jok {
			return iok
		}
		if iok && oi != oj {
			return oi < oj
		}
		return up[i].CreationTimestamp.Before(&up[j].CreationTimestamp) || (up[i].CreationTimestamp.Equal(&up[j].CreationTimestamp) && ki < kj)
	})
	pending, err := sk.Pending()
	if err != nil {
		return err
	}
	boundIn, err := sk.Bound()
	if err != nil {
		return err
	}
	pairs, err := c.matchPods(up, append(boundIn, pending...), skipped, upRejected)
	if err != nil {
		return err
	}
	c.compareEffective(pairs)

	// A pod's claims from templates are named after the pod, with a
	// random suffix: compared by owner (paired pod) and pod claim name.
	skClaims := sk.PodClaims()
	for _, r := range claims.Items {
		ref := metav1.GetControllerOf(&r)
		if ref == nil || ref.Kind != "Pod" {
			continue
		}
		pr := pairs[r.Namespace+"/"+ref.Name]
		if pr == nil {
			continue
		}
		if n, ok := skClaims[pr.skv.Namespace+"/"+pr.skv.Name+"\x00"+r.Annotations["resource.kubernetes.io/pod-claim-name"]]; ok {
			claimRename[r.Namespace+"/"+r.Name] = n
		}
	}
	c.compareObjects("ResourceClaim", names, sk, nil, func(n string) string {
		if r, ok := claimRename[n]; ok {
			return r
		}
		return n
	})

	// Claims: an ephemeral volume's is named after its pod, whose name
	// is random; it is compared under the schedkit pod's name.
	pvcs, err := cs.CoreV1().PersistentVolumeClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	names = nil
	rename := map[string]string{}
	for _, p := range pvcs.Items {
		n := p.Namespace + "/" + p.Name
		names = append(names, n)
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.Kind == "Pod" {
			if pr := pairs[p.Namespace+"/"+ref.Name]; pr != nil && strings.HasPrefix(p.Name, ref.Name+"-") {
				rename[n] = p.Namespace + "/" + pr.skv.Name + strings.TrimPrefix(p.Name, ref.Name)
			}
		}
	}
	c.compareObjects("PersistentVolumeClaim", names, sk, nil, func(n string) string {
		if r, ok := rename[n]; ok {
			return r
		}
		return n
	})
	return c.lockstep(ctx, sk, events, pairs, final)
}

// compareKnown compares the disagreements with the known list: each
// line of the file (blank lines and # comments aside) is a
// disagreement's prefix (see disagreement.prefix).
func compareKnown(path string, lines []disagreement, stdout, stderr io.Writer) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	defer f.Close()
	want := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		want[l]++
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	got := map[string]int{}
	for _, d := range lines {
		got[d.prefix()]++
	}
	var news, fixed []string
	for k, n := range got {
		for i := want[k]; i < n; i++ {
			news = append(news, k)
		}
	}
	for k, n := range want {
		for i := got[k]; i < n; i++ {
			fixed = append(fixed, k)
		}
	}
	sort.Strings(news)
	sort.Strings(fixed)
	for _, k := range news {
		fmt.Fprintf(stdout, "new disagreement: %s\n", k)
	}
	for _, k := range fixed {
		fmt.Fprintf(stdout, "fixed (remove from %s): %s\n", path, k)
	}
	if len(news)+len(fixed) > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "known disagreements: all %d as listed in %s\n", len(lines), path)
	return 0
}

// silenceKlog sends klog's output (the API server's, the controllers',
// the scheduler's) nowhere.
func silenceKlog() {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}

// deleteAfterSettleAnnotation marks an input pod the runner deletes
// (grace period 0, as a kubelet-less force delete) once the cluster has
// settled after the apply; the lockstep then replays its removal, and
// what it frees, as it replays a preemption victim's.
const deleteAfterSettleAnnotation = "conformance.schedkit.io/delete-after-settle"

// deleteAfterSettle are the input pods annotated to be deleted after the
// first settle, in reading order.
func deleteAfterSettle(objs []*object) []*object {
	var out []*object
	for _, o := range objs {
		if o.kind() == "Pod" && o.u.GetAnnotations()[deleteAfterSettleAnnotation] == "true" {
			out = append(out, o)
		}
	}
	return out
}

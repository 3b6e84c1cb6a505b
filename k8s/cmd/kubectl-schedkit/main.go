// Command kubectl-schedkit is the kubectl plugin `kubectl schedkit`: the
// schedkit command run against the current kubeconfig context instead of
// a dump. See usage below and the README of the k8s module.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/cmd/schedkit/app"
	"github.com/schedkit/schedkit/k8s/dump"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

const usage = `kubectl schedkit: what kube-scheduler v1.37.2 would decide, on the cluster of
the current kubeconfig context.

Usage:
  kubectl schedkit explain [pod/NAME] [-n NS | -A] [schedkit flags]
  kubectl schedkit simulate [-n NS | -A] [schedkit flags]
  kubectl schedkit describe [-n NS | -A] [schedkit flags]
  kubectl schedkit capacity --pod FILE... [schedkit flags]
  kubectl schedkit compare --config A [--config B] [schedkit flags]
  kubectl schedkit drain NODE... [schedkit flags]

It lists the objects the answer needs (nodes, pods and the kinds the
command reads, of every namespace, with paginated list calls), then gives
the same output as 'schedkit COMMAND -f dump' on a dump of them. It is
read-only: it only lists, and never creates, changes or deletes anything
in the cluster.

Flags of the plugin (every other flag goes to schedkit, see
'schedkit COMMAND --help'):
  --kubeconfig FILE    the kubeconfig file (default: $KUBECONFIG, ~/.kube/config)
  --context NAME       the kubeconfig context (default: the current context)
  -n, --namespace NS   the pending pods and workloads of NS only (default: the
                       context's namespace); nodes and the pods bound to them
                       are read in every namespace, as the scheduler sees them
  -A, --all-namespaces the pending pods and workloads of every namespace
  --save-dump FILE     also write what was read to FILE (a v1 List, JSON), to
                       reproduce the answer offline: schedkit COMMAND -f FILE
  --page-size N        objects per list call (default 500)

pod/NAME (explain) is schedkit's --pod NS/NAME in the chosen namespace.
Exit codes are schedkit's; 2 also when the cluster cannot be read.

Example:
  kubectl schedkit explain pod/web -n shop
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, deps{}))
}

// deps are what a test replaces: the clientset, and the schedkit command
// (app.Run by default).
type deps struct {
	client   func(kubeconfig, kctx string) (kubernetes.Interface, string, error)
	schedkit func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// options are the plugin's own flags; rest goes to schedkit.
type options struct {
	command                 string
	kubeconfig, kctx, ns    string
	all                     bool
	saveDump                string
	pageSize                int64
	rest                    []string
	help                    bool
	namespaceSet, podTarget bool
}

// parse splits args into the plugin's flags and schedkit's.
func parse(args []string) (*options, error) {
	o := &options{pageSize: 500}
	if len(args) == 0 {
		o.help = true
		return o, nil
	}
	o.command = args[0]
	args = args[1:]
	switch o.command {
	case "-h", "--help", "-help", "help":
		o.help = true
		return o, nil
	}
	value := func(i *int, name, arg string) (string, error) {
		if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(k, "-") {
			return v, nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("flag %s needs a value", name)
		}
		*i++
		return args[*i], nil
	}
	var pods []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, _ := strings.Cut(a, "=")
		var err error
		switch name {
		case "-h", "--help", "-help":
			o.help = true
		case "--kubeconfig":
			o.kubeconfig, err = value(&i, name, a)
		case "--context":
			o.kctx, err = value(&i, name, a)
		case "-n", "--namespace":
			o.ns, err = value(&i, name, a)
			o.namespaceSet = true
		case "-A", "--all-namespaces":
			o.all = true
		case "--save-dump":
			o.saveDump, err = value(&i, name, a)
		case "--page-size":
			var v string
			if v, err = value(&i, name, a); err == nil {
				o.pageSize, err = strconv.ParseInt(v, 10, 64)
				if err == nil && o.pageSize <= 0 {
					err = fmt.Errorf("--page-size %d is not positive", o.pageSize)
				}
			}
		case "-f", "--filename", "-R", "--recursive":
			return nil, fmt.Errorf("%s: kubectl schedkit reads the cluster; use schedkit -f for files", a)
		default:
			if t, n, ok := strings.Cut(a, "/"); ok && o.command == "explain" && (t == "pod" || t == "pods" || t == "po") {
				pods = append(pods, n)
				continue
			}
			o.rest = append(o.rest, a)
		}
		if err != nil {
			return nil, err
		}
	}
	if o.all && o.namespaceSet {
		return nil, errors.New("-n and -A exclude each other")
	}
	if len(pods) > 1 {
		return nil, fmt.Errorf("explain takes one pod/NAME, got %d", len(pods))
	}
	if len(pods) == 1 {
		o.podTarget = true
		o.rest = append(o.rest, "--pod", "\x00"+pods[0]) // the namespace is known once the context is loaded
	}
	return o, nil
}

// commands are schedkit's commands the plugin runs.
var commands = []string{"explain", "simulate", "describe", "capacity", "compare", "drain"}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, d deps) int {
	o, err := parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "kubectl schedkit: %v\n", err)
		return 2
	}
	if d.schedkit == nil {
		d.schedkit = runSchedkit
	}
	if o.help {
		fmt.Fprint(stdout, usage)
		if !slices.Contains(commands, o.command) {
			return 0
		}
		// The plugin's flags, then the command's own, from schedkit.
		fmt.Fprintf(stdout, "\nschedkit %s --help:\n", o.command)
		return d.schedkit([]string{o.command, "--help"}, nil, stdout, stderr)
	}
	if o.command == "version" {
		return d.schedkit([]string{"version"}, nil, stdout, stderr)
	}
	if !slices.Contains(commands, o.command) {
		fmt.Fprintf(stderr, "kubectl schedkit: unknown command %q (one of %s)\n", o.command, strings.Join(commands, ", "))
		return 2
	}
	if d.client == nil {
		d.client = newClient
	}
	client, ns, err := d.client(o.kubeconfig, o.kctx)
	if err != nil {
		fmt.Fprintf(stderr, "kubectl schedkit: %v\n", err)
		return 2
	}
	if o.namespaceSet {
		ns = o.ns
	}
	if o.all {
		ns = ""
	}
	for i, a := range o.rest {
		if strings.HasPrefix(a, "\x00") {
			pns := ns
			if pns == "" {
				pns = "default"
			}
			o.rest[i] = pns + "/" + a[1:]
		}
	}

	out, cleanup, err := openDump(o.saveDump)
	if err != nil {
		fmt.Fprintf(stderr, "kubectl schedkit: %v\n", err)
		return 2
	}
	defer cleanup()
	dopts := dump.Options{Kinds: dump.ForCommand(o.command), Namespace: ns, PageSize: o.pageSize}
	if o.podTarget {
		dopts.Namespace = "" // --pod chooses the pod; every pending pod keeps its place in the queue
	}
	if err := dump.Write(ctx, client, out, dopts); err != nil {
		fmt.Fprintf(stderr, "kubectl schedkit: reading the cluster: %v\n", err)
		return 2
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		fmt.Fprintf(stderr, "kubectl schedkit: %v\n", err)
		return 2
	}
	cmd := append([]string{o.command, "-f", "-"}, o.rest...)
	return d.schedkit(cmd, out, stdout, stderr)
}

// openDump opens the file the List is written to: FILE of --save-dump,
// kept, or a temporary file, removed by cleanup. The command reads it
// back as its standard input (a file, so it need not spool it).
func openDump(path string) (*os.File, func(), error) {
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
	f, err := os.CreateTemp("", "kubectl-schedkit-*.json")
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close(); os.Remove(f.Name()) }, nil
}

// newClient loads the kubeconfig as kubectl does (clientcmd's default
// loading rules: --kubeconfig, $KUBECONFIG, ~/.kube/config; --context
// overrides the current context) and returns a clientset and the
// context's namespace.
func newClient(kubeconfig, kctx string) (kubernetes.Interface, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: kctx}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, "", err
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", err
	}
	cfg.UserAgent = "kubectl-schedkit"
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, "", err
	}
	return client, ns, nil
}

// runSchedkit runs the schedkit command with args, stdin, stdout and
// stderr in this process, and returns its exit code. The command is
// linked in, so installing the plugin alone is enough.
func runSchedkit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	return app.Run(args, stdin, stdout, stderr)
}

// Package k8stest has the helpers of tests that run schedkit against a
// Kubernetes API server, fake or real (the in-process control plane of
// the conformance module): decisions in a form two snapshots can be
// compared by, a kubeconfig for a rest.Config, the commands built and
// run, and the live answer compared with the answer on a dump.
//
//	live, _ := live.NewFromClient(cp.Client()) ... live.WaitForSync(ctx)
//	fromDump, _ := k8stest.LoadDump(ctx, dumpFile)
//	if a, b := k8stest.Decisions(live.Snapshot(), probes), k8stest.Decisions(fromDump.Snapshot, probes); a != b { ... }
//	live, offline, err := k8stest.ComparePlugin(bins, kubeconfig, dir, "simulate", "-A")
package k8stest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cmd/schedkit/app"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Decisions explains each probe on snap and prints the outcome in a form
// independent of node order: every node's verdict and total score, the
// tied best nodes as a set, and the fit error. Two snapshots of the same
// cluster built in different orders (from events, from a dump) list
// their nodes in different orders, as two kube-scheduler caches may, and
// break ties differently; everything else they decide alike.
func Decisions(snap *cluster.Snapshot, probes []*api.Pod) (string, error) {
	s, err := scheduler.New(snap, scheduler.WithSeed(1))
	if err != nil {
		return "", err
	}
	defer s.Close()
	var b strings.Builder
	for _, p := range probes {
		ex, err := s.Explain(context.Background(), p)
		if err != nil {
			return "", fmt.Errorf("explain %s/%s: %w", p.Namespace, p.Name, err)
		}
		fmt.Fprintf(&b, "%s/%s:", p.Namespace, p.Name)
		nodes := slices.Clone(ex.Nodes)
		slices.SortFunc(nodes, func(a, b scheduler.NodeExplanation) int { return strings.Compare(a.Name, b.Name) })
		for _, n := range nodes {
			fmt.Fprintf(&b, " %s feasible=%v total=%d status=%v;", n.Name, n.Feasible, n.Total, n.Status)
		}
		fmt.Fprintf(&b, " tied=%v err=%v\n", slices.Sorted(slices.Values(ex.Tied)), ex.Err)
	}
	return b.String(), nil
}

// LoadDump loads a dump (kubectl-schedkit --save-dump, dump.Write) as the
// schedkit command does.
func LoadDump(ctx context.Context, path string) (*manifest.Cluster, error) {
	return manifest.Load(ctx, manifest.Options{}, path)
}

// WriteKubeconfig writes a kubeconfig file for cfg (server, CA, client
// certificate or bearer token) with one context, "test", made current.
func WriteKubeconfig(cfg *rest.Config, path string) error {
	c := clientcmdapi.NewConfig()
	c.Clusters["test"] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.CAData,
		CertificateAuthority:     cfg.CAFile,
		InsecureSkipTLSVerify:    cfg.Insecure,
		TLSServerName:            cfg.ServerName,
	}
	c.AuthInfos["test"] = &clientcmdapi.AuthInfo{
		Token:                 cfg.BearerToken,
		TokenFile:             cfg.BearerTokenFile,
		ClientCertificateData: cfg.CertData,
		ClientCertificate:     cfg.CertFile,
		ClientKeyData:         cfg.KeyData,
		ClientKey:             cfg.KeyFile,
		Username:              cfg.Username,
		Password:              cfg.Password,
	}
	c.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "test", Namespace: "default"}
	c.CurrentContext = "test"
	return clientcmd.WriteToFile(*c, path)
}

// Binaries are the built commands.
type Binaries struct {
	// Plugin is kubectl-schedkit. It runs the schedkit command in
	// process, so it needs nothing else installed.
	Plugin string
}

// Build builds kubectl-schedkit into dir with the go command; the calling
// module must require github.com/schedkit/schedkit/k8s (the conformance
// module does, with a replace).
func Build(dir string) (Binaries, error) {
	b := Binaries{Plugin: filepath.Join(dir, "kubectl-schedkit")}
	const pkg = "github.com/schedkit/schedkit/k8s/cmd/kubectl-schedkit"
	if out, err := exec.Command("go", "build", "-o", b.Plugin, pkg).CombinedOutput(); err != nil {
		return b, fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return b, nil
}

// Output is what a command printed and its exit code.
type Output struct {
	Stdout, Stderr string
	Code           int
}

// Run runs bin with args.
func Run(bin string, args ...string) (Output, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := Output{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		o.Code = exit.ExitCode()
		err = nil
	}
	return o, err
}

// ComparePlugin runs `kubectl-schedkit ARGS --kubeconfig K --save-dump D`
// and then `schedkit COMMAND -f D REST` in this process (app.Run), and
// returns both outputs; the caller checks they are equal (same stdout and
// exit code). args[0] is the command.
func ComparePlugin(bins Binaries, kubeconfig, dir string, args ...string) (live, offline Output, err error) {
	if len(args) == 0 {
		return live, offline, errors.New("no command")
	}
	d, err := os.CreateTemp(dir, "dump-*.json")
	if err != nil {
		return live, offline, err
	}
	d.Close()
	live, err = Run(bins.Plugin, append(slices.Clone(args), "--kubeconfig", kubeconfig, "--save-dump", d.Name())...)
	if err != nil {
		return live, offline, err
	}
	if live.Code == 2 {
		return live, offline, fmt.Errorf("kubectl-schedkit %v: exit 2: %s", args, live.Stderr)
	}
	offline = RunSchedkit(append([]string{args[0], "-f", d.Name()}, pluginless(args[1:])...)...)
	return live, offline, nil
}

// RunSchedkit runs the schedkit command with args in this process, as
// the schedkit binary would, with an empty standard input.
func RunSchedkit(args ...string) Output {
	var stdout, stderr bytes.Buffer
	code := app.Run(args, strings.NewReader(""), &stdout, &stderr)
	return Output{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// pluginless drops the plugin's own arguments (pod/NAME becomes --pod,
// -n and -A have no schedkit meaning, --page-size, --kubeconfig,
// --context and --save-dump are the plugin's) from args; ComparePlugin's
// callers pass only schedkit flags besides those.
func pluginless(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, withValue := strings.Cut(a, "=")
		switch name {
		case "-n", "--namespace", "--page-size", "--kubeconfig", "--context", "--save-dump":
			if !withValue {
				i++
			}
		case "-A", "--all-namespaces":
		default:
			out = append(out, a)
		}
	}
	return out
}

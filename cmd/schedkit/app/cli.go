package app

import (
	"errors"
	"flag"
	"fmt"
	"github.com/schedkit/schedkit/manifest"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schedkit/schedkit/scheduler"
)

// Exit codes.
const (
	exitOK            = 0 // done
	exitUnschedulable = 1 // some pod unschedulable or preempting; with --strict, unverified or warned
	exitBadInput      = 2 // bad input or bad usage
)

// env is what a run reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// terminal is set when stderr is a terminal: progress is shown then,
	// once the run has taken progressDelay (0: at once, for tests).
	terminal      bool
	progressDelay time.Duration
	// paceGC: the command paces the garbage collector (memory.go); set
	// by main, not by the tests that call run.
	paceGC bool
}

// usageError is bad usage: printed with the command's usage line, exit 2.
type usageError struct {
	msg string
}

func (e *usageError) Error() string { return e.msg }

// inputError is bad input (a manifest, a configuration): exit 2.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// command is one subcommand.
type command struct {
	name    string
	args    string // positional arguments, for the usage line
	short   string
	long    string
	example string
	flags   func(fs *flag.FlagSet, o *options)
	// run returns the exit code; an error is printed and exits 2.
	run func(e *env, o *options, args []string) (int, error)
}

// options are every command's flags; each command registers those it
// takes.
type options struct {
	files       listFlag
	recursive   bool
	noExpand    bool
	configs     listFlag
	output      string
	html        string
	strict      bool
	top         int
	independent bool
	whyNot      bool
	pod         string
	all         bool
	// namespace and allNamespaces are -n and -A.
	namespace     string
	allNamespaces bool
	// command is the command's name, for messages.
	command string
	// warned is set once a warning is printed: --strict then exits 1.
	warned   bool
	podFiles listFlag
	ties     string
	seed     uint64
	// featureGates is --feature-gates, as kube-scheduler takes it.
	featureGates string
	now          timeFlag
	drain        scheduler.DrainOptions
	validate     validateFlag
	// admissionConfig is --admission-config; admission the configuration
	// read from it.
	admissionConfig string
	admission       *manifest.AdmissionConfig
	// autoscale are scale-up's and scale-down's flags.
	autoscale autoscaleOptions
}

// validateFlag is kubectl's --validate: strict (true, and the flag
// alone), warn, or ignore (false).
type validateFlag struct{ v manifest.FieldValidation }

func (f *validateFlag) String() string {
	switch f.v {
	case manifest.ValidateWarn:
		return "warn"
	case manifest.ValidateIgnore:
		return "ignore"
	}
	return "strict"
}

func (f *validateFlag) Set(s string) error {
	v, err := manifest.ParseFieldValidation(s)
	f.v = v
	return err
}

// IsBoolFlag lets --validate stand alone (strict), as kubectl's does;
// other values take the --validate=VALUE form.
func (f *validateFlag) IsBoolFlag() bool { return true }

// timeFlag is an RFC 3339 time; its zero value means unset.
type timeFlag struct{ t time.Time }

func (f *timeFlag) String() string {
	if f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339)
}

func (f *timeFlag) Set(s string) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("want an RFC 3339 time such as 2026-12-01T14:00:00Z: %w", err)
	}
	f.t = t
	return nil
}

// listFlag is a repeatable flag whose values may be comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for v := range strings.SplitSeq(s, ",") {
		if v == "" {
			return errors.New("empty path")
		}
		*l = append(*l, v)
	}
	return nil
}

func commands() []*command {
	return []*command{explainCmd(), simulateCmd(), describeCmd(), capacityCmd(), compareCmd(), drainCmd(), scaleUpCmd(), scaleDownCmd(), versionCmd()}
}

const topUsage = `schedkit: what kube-scheduler v1.37.2 would do with your cluster, and why.

Usage:
  schedkit COMMAND [flags]

Commands:
%s
Run "schedkit COMMAND --help" for a command's flags and an example.

Exit codes, the same for every command:
  0  done
  1  when some pod is unschedulable or fits only by preempting (drain: also
     a node kubectl would not drain or an eviction a PDB blocks), or, with
     --strict, when some decision is unverified or a warning was printed
  2  bad input or bad usage
`

func (e *env) topUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, topUsage, b.String())
}

func (e *env) main(args []string) int {
	if len(args) == 0 {
		e.topUsage(e.stderr)
		return exitBadInput
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		e.topUsage(e.stdout)
		return exitOK
	case "help":
		if len(args) == 1 {
			e.topUsage(e.stdout)
			return exitOK
		}
		name, args = args[1], []string{args[1], "--help"}
	}
	i := slices.IndexFunc(commands(), func(c *command) bool { return c.name == name })
	if i < 0 {
		fmt.Fprintf(e.stderr, "schedkit: unknown command %q\n", name)
		e.topUsage(e.stderr)
		return exitBadInput
	}
	c := commands()[i]
	o := &options{output: "table", ties: "upstream", seed: 1, command: c.name}
	fs := flag.NewFlagSet("schedkit "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.flags(fs, o)
	pos, err := parseInterleaved(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		c.help(e.stdout, fs)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "schedkit %s: %v\n%s", c.name, err, c.usageLine())
		return exitBadInput
	}
	code, err := c.run(e, o, pos)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(e.stderr, "schedkit %s: %s\n%s", c.name, ue.msg, c.usageLine())
		} else {
			fmt.Fprintf(e.stderr, "schedkit %s: %v\n", c.name, err)
		}
		return exitBadInput
	}
	return code
}

func (c *command) usageLine() string {
	return fmt.Sprintf("usage: schedkit %s [flags]%s (see schedkit %s --help)\n", c.name, c.args, c.name)
}

// help prints the command's help: what it does, an example, its flags.
func (c *command) help(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "schedkit %s: %s\n\nUsage:\n  schedkit %s [flags]%s\n\n%s\nExample:\n%s\nFlags:\n", c.name, c.short, c.name, c.args, c.long, c.example)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// parseInterleaved parses flags placed before, between and after
// positional arguments, as kubectl does; "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	args = splitShort(fs, args)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// splitShort spells kubectl's joined short flags as two arguments:
// -ojson is -o json, -nshop is -n shop, when the command has -o or -n and
// no flag of the joined name (-now stays -now). Arguments after "--"
// stay.
func splitShort(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && (a[1] == 'o' || a[1] == 'n') && fs.Lookup(a[1:2]) != nil && !strings.Contains(a, "=") && fs.Lookup(a[1:]) == nil {
			out = append(out, a[:2], a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// Flag registration helpers, shared by the commands.

func inputFlags(fs *flag.FlagSet, o *options) {
	fs.Var(&o.files, "f", "manifest `PATH`: a file, a folder, a comma list or - for standard input (repeatable)")
	fs.Var(&o.files, "filename", "same as -f")
	fs.BoolVar(&o.recursive, "R", false, "read the subfolders of the folders given with -f")
	fs.BoolVar(&o.recursive, "recursive", false, "same as -R")
	fs.Var(&o.now, "now", "`TIME` (RFC 3339) the input is judged at, such as when the dump was taken: Jobs' activeDeadlineSeconds and pod failure backoff, the deletion grace periods quota admission reads; default this machine's clock (a warning names each Job so judged)")
	fs.Var(&o.validate, "validate", "how unknown and duplicate fields are taken, as kubectl's --validate: strict (or true: an error, exit 2), warn (a warning; the field is dropped) or ignore (or false); give it as --validate=VALUE")
	fs.StringVar(&o.admissionConfig, "admission-config", "", "the API server's admission configuration `FILE` (AdmissionConfiguration apiserver.config.k8s.io/v1, as --admission-control-config-file): the ResourceQuota plugin's limitedResources")
	fs.BoolVar(&o.noExpand, "no-workloads", false, "do not add the pods that workloads (Deployments, ReplicaSets, StatefulSets, Jobs, DaemonSets) would still create")
}

func namespaceFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.namespace, "n", "", "only the pending pods of `NAMESPACE` (the others are still placed), and the namespace of --pod NAME")
	fs.StringVar(&o.namespace, "namespace", "", "same as -n")
	fs.BoolVar(&o.allNamespaces, "A", false, "the pods of every namespace (the default)")
	fs.BoolVar(&o.allNamespaces, "all-namespaces", false, "same as -A")
}

// checkWritable creates path, to fail on an unwritable one before
// anything runs.
func checkWritable(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return &inputError{fmt.Errorf("--html: %w", err)}
	}
	return f.Close()
}

func configFlag(fs *flag.FlagSet, o *options) {
	fs.Var(&o.configs, "config", "kube-scheduler configuration `FILE` (KubeSchedulerConfiguration v1 or a legacy Policy); without it, the default profile with every node scored")
}

func outputFlag(fs *flag.FlagSet, o *options, formats ...string) {
	fs.StringVar(&o.output, "o", "table", "output format: "+strings.Join(formats, "|"))
	fs.StringVar(&o.output, "output", "table", "same as -o")
}

func strictFlag(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.strict, "strict", false, "exit 1 also when a decision is unverified (a pod uses a feature whose plugin schedkit lacks) or a warning was printed")
}

func tieFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.ties, "ties", "upstream", "how ties between equally scored nodes are broken: upstream (kube-scheduler's deterministic order) or random (seeded)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for --ties random; it changes tie-breaking only, never the names of the pods workloads add")
}

// gatesFlag is kube-scheduler's --feature-gates.
func gatesFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.featureGates, "feature-gates", "", "kube-scheduler's feature gates, `NAME=BOOL,...`, limited to the gates schedkit models (GenericWorkload=true schedules PodGroups as gangs); unset gates keep their v1.37.2 defaults")
}

// checkOutput validates -o against the command's formats.
func checkOutput(o *options, formats ...string) error {
	if !slices.Contains(formats, o.output) {
		return &usageError{msg: fmt.Sprintf("-o %q: want one of %s", o.output, strings.Join(formats, ", "))}
	}
	return nil
}

// noArgs refuses stray positional arguments.
func noArgs(args []string) error {
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("unexpected argument %q (manifests are given with -f)", args[0])}
	}
	return nil
}

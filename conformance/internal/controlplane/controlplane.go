package controlplane

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
)

// Options configure Start.
type Options struct {
	// SchedulerConfig is kube-scheduler's configuration, defaulted as
	// kube-scheduler defaults its file (see DecodeSchedulerConfig); nil
	// is the default profile.
	SchedulerConfig *kconfig.KubeSchedulerConfiguration
	// Logf, when set, receives the start-up and shutdown steps.
	Logf func(format string, args ...any)
	// StartTimeout bounds the start-up; zero is two minutes.
	StartTimeout time.Duration
	// FeatureGates, when set, are set on the process's feature gates
	// before anything starts, as --feature-gates on every component
	// ("GenericWorkload=true"); they stay set for the process.
	FeatureGates string
	// RuntimeConfig is kube-apiserver's --runtime-config, such as
	// {"scheduling.k8s.io/v1beta1": "true"}.
	RuntimeConfig map[string]string
}

// ControlPlane is a running control plane; Stop ends it.
type ControlPlane struct {
	dir    string
	cfg    *restclient.Config
	client kubernetes.Interface

	cancel context.CancelFunc
	// wg counts every goroutine Start began; Stop waits for all.
	wg   sync.WaitGroup
	stop []func()
	once sync.Once
	logf func(format string, args ...any)
	// runtimeConfig is Options.RuntimeConfig.
	runtimeConfig map[string]string
	// cycles records the scheduler's cycles (see Cycles).
	cycles cycleLog
}

// Client returns a client of the API server with a high rate limit.
func (c *ControlPlane) Client() kubernetes.Interface { return c.client }

// RESTConfig returns a copy of the client configuration of the API
// server (loopback, privileged).
func (c *ControlPlane) RESTConfig() *restclient.Config { return restclient.CopyConfig(c.cfg) }

// Start starts etcd, the API server, the controllers and the scheduler,
// and returns once the API server is healthy, the "default" namespace
// and its service account exist and the scheduler's informers are
// synced. ctx bounds the start-up only; Stop ends the control plane.
// On error everything started is stopped.
func Start(ctx context.Context, opts Options) (_ *ControlPlane, err error) {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	startCtx, cancelStart := context.WithTimeout(ctx, timeout)
	defer cancelStart()

	dir, err := os.MkdirTemp("", "schedkit-controlplane-")
	if err != nil {
		return nil, err
	}
	// The running components outlive ctx: they stop on Stop.
	runCtx, cancel := context.WithCancel(klog.NewContext(context.Background(), klog.Background()))
	c := &ControlPlane{dir: dir, cancel: cancel, logf: logf}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()

	if opts.FeatureGates != "" {
		if err := utilfeature.DefaultMutableFeatureGate.Set(opts.FeatureGates); err != nil {
			return nil, fmt.Errorf("feature gates: %w", err)
		}
	}
	c.runtimeConfig = opts.RuntimeConfig

	t0 := time.Now()
	etcdURL, stopEtcd, err := startEtcd(startCtx, filepath.Join(dir, "etcd"))
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	c.stop = append(c.stop, stopEtcd)
	logf("etcd ready at %s (%v)", etcdURL, time.Since(t0).Round(time.Millisecond))

	t1 := time.Now()
	cfg, err := c.startAPIServer(runCtx, startCtx, dir, etcdURL)
	if err != nil {
		return nil, fmt.Errorf("kube-apiserver: %w", err)
	}
	cfg.QPS = 1000
	cfg.Burst = 10000
	c.cfg = cfg
	c.client, err = kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := waitHealthy(startCtx, c.client); err != nil {
		return nil, fmt.Errorf("kube-apiserver: %w", err)
	}
	logf("kube-apiserver healthy at %s (%v)", cfg.Host, time.Since(t1).Round(time.Millisecond))

	t2 := time.Now()
	if err := c.startControllers(runCtx, startCtx); err != nil {
		return nil, fmt.Errorf("controllers: %w", err)
	}
	if err := c.WaitForServiceAccount(startCtx, metav1.NamespaceDefault); err != nil {
		return nil, err
	}
	logf("controllers running (%v)", time.Since(t2).Round(time.Millisecond))

	t3 := time.Now()
	if err := c.startScheduler(runCtx, startCtx, opts.SchedulerConfig); err != nil {
		return nil, fmt.Errorf("kube-scheduler: %w", err)
	}
	logf("kube-scheduler running (%v); control plane up in %v", time.Since(t3).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
	return c, nil
}

// Stop stops the scheduler, the controllers, the API server and etcd,
// waits for their goroutines and removes the data directory. It is safe
// to call more than once.
func (c *ControlPlane) Stop() {
	c.once.Do(func() {
		t0 := time.Now()
		c.cancel()
		c.wg.Wait()
		for i := len(c.stop) - 1; i >= 0; i-- {
			c.stop[i]()
		}
		if err := os.RemoveAll(c.dir); err != nil {
			c.logf("removing %s: %v", c.dir, err)
		}
		c.logf("control plane stopped (%v)", time.Since(t0).Round(time.Millisecond))
	})
}

// WaitForServiceAccount waits until namespace ns has its "default"
// service account, which the ServiceAccount admission plugin requires
// before it admits a pod there.
func (c *ControlPlane) WaitForServiceAccount(ctx context.Context, ns string) error {
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := c.client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		return fmt.Errorf("waiting for the service account %s/default: %w", ns, err)
	}
	return nil
}

// go runs f in a goroutine that Stop waits for.
func (c *ControlPlane) goRun(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// waitHealthy polls /healthz, then waits for the "default" namespace
// that the API server's bootstrap controller creates.
func waitHealthy(ctx context.Context, client kubernetes.Interface) error {
	var last string
	err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		res := client.CoreV1().RESTClient().Get().AbsPath("/healthz").Do(ctx)
		status := 0
		res.StatusCode(&status)
		if status == 200 {
			return true, nil
		}
		body, _ := res.Raw()
		last = string(body)
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("/healthz not ok (%s): %w", last, err)
	}
	err = wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Namespaces().Get(ctx, metav1.NamespaceDefault, metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		return errors.New("the default namespace was not created")
	}
	return nil
}

// freePort returns a free TCP port on 127.0.0.1. Another process can
// take it before it is used; etcd's own listeners need a port number
// before they listen.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

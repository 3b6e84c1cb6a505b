package controlplane

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	restclient "k8s.io/client-go/rest"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
	"k8s.io/kubernetes/cmd/kube-apiserver/app/options"
)

// disabledAdmission are the default admission plugins turned off, each
// for a component this control plane does not run.
var disabledAdmission = []string{
	// Taints every new Node not-ready until the node lifecycle
	// controller sees a kubelet's heartbeat; no kubelet runs here.
	"TaintNodesByCondition",
}

// startAPIServer starts kube-apiserver on a free port of 127.0.0.1 with
// its certificates in dir and its storage in etcd at etcdURL, and
// returns its loopback client configuration. It runs until runCtx ends.
func (c *ControlPlane) startAPIServer(runCtx, startCtx context.Context, dir, etcdURL string) (*restclient.Config, error) {
	s := options.NewServerRunOptions()
	// The default registry knows the kube component; Set applies the
	// (absent) version and feature-gate flags once per process.
	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return nil, err
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.SecureServing.Listener = ln
	s.SecureServing.BindAddress = net.ParseIP("127.0.0.1")
	s.SecureServing.BindPort = ln.Addr().(*net.TCPAddr).Port
	s.SecureServing.ExternalAddress = net.ParseIP("127.0.0.1")
	s.SecureServing.ServerCert.CertDirectory = filepath.Join(dir, "certs")
	s.ServiceClusterIPRanges = "10.0.0.0/16"
	s.EndpointReconcilerType = "none"
	s.Etcd.StorageConfig.Transport.ServerList = []string{etcdURL}
	s.Admission.GenericAdmission.DisablePlugins = disabledAdmission
	for k, v := range c.runtimeConfig {
		s.APIEnablement.RuntimeConfig[k] = v
	}

	keyFile := filepath.Join(dir, "sa.key")
	if err := writeSigningKey(keyFile); err != nil {
		ln.Close()
		return nil, err
	}
	s.ServiceAccountSigningKeyFile = keyFile
	s.Authentication.ServiceAccounts.Issuers = []string{"https://schedkit.invalid"}
	s.Authentication.ServiceAccounts.KeyFiles = []string{keyFile}

	completed, err := s.Complete(runCtx)
	if err != nil {
		ln.Close()
		return nil, err
	}
	if errs := completed.Validate(); len(errs) != 0 {
		ln.Close()
		return nil, utilerrors.NewAggregate(errs)
	}
	config, err := app.NewConfig(completed)
	if err != nil {
		ln.Close()
		return nil, err
	}
	cc, err := config.Complete()
	if err != nil {
		ln.Close()
		return nil, err
	}
	server, err := app.CreateServerChain(cc)
	if err != nil {
		ln.Close()
		return nil, err
	}
	prepared, err := server.PrepareRun()
	if err != nil {
		ln.Close()
		return nil, err
	}
	errCh := make(chan error, 1)
	c.goRun(func() { errCh <- prepared.Run(runCtx) })
	c.stop = append(c.stop, func() {
		// Run has returned: wg.Wait came first.
		if err := <-errCh; err != nil {
			c.logf("kube-apiserver stopped: %v", err)
		}
	})
	select {
	case err := <-errCh:
		errCh <- err
		return nil, fmt.Errorf("stopped at start: %v", err)
	case <-time.After(10 * time.Millisecond):
	case <-startCtx.Done():
		return nil, startCtx.Err()
	}
	return restclient.CopyConfig(server.GenericAPIServer.LoopbackClientConfig), nil
}

// writeSigningKey writes a new P-256 key, the service account token
// signing key of this control plane only, to path.
func writeSigningKey(path string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600)
}

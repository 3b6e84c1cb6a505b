package controlplane

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// startEtcd starts a one-member etcd on 127.0.0.1 with its data in dir
// and returns its client URL and a function that stops it. Fsync is off:
// the data lives as long as the process.
func startEtcd(ctx context.Context, dir string) (string, func(), error) {
	clientPort, err := freePort()
	if err != nil {
		return "", nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return "", nil, err
	}
	cu := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", clientPort)}
	pu := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", peerPort)}

	cfg := embed.NewConfig()
	cfg.Dir = dir
	cfg.Name = "schedkit"
	cfg.ListenClientUrls = []url.URL{cu}
	cfg.AdvertiseClientUrls = []url.URL{cu}
	cfg.ListenPeerUrls = []url.URL{pu}
	cfg.AdvertisePeerUrls = []url.URL{pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ListenMetricsUrls = nil
	cfg.UnsafeNoFsync = true
	cfg.Logger = "zap"
	cfg.LogLevel = "error"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return "", nil, err
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return "", nil, err
	case <-ctx.Done():
		e.Close()
		return "", nil, fmt.Errorf("not ready: %w", ctx.Err())
	case <-time.After(time.Minute):
		e.Close()
		return "", nil, fmt.Errorf("not ready after a minute")
	}
	return cu.String(), e.Close, nil
}

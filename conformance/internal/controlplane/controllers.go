package controlplane

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apiserver/pkg/quota/v1/generic"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/informers"
	schedulinginformers "k8s.io/client-go/informers/scheduling/v1beta1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/controller-manager/pkg/informerfactory"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/controller/resourcequota"
	"k8s.io/kubernetes/pkg/controller/serviceaccount"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/volume/ephemeral"
	"k8s.io/kubernetes/pkg/controller/volume/persistentvolume"
	"k8s.io/kubernetes/pkg/features"
	quotainstall "k8s.io/kubernetes/pkg/quota/v1/install"
)

// Workers per controller, kube-controller-manager's defaults.
const (
	workers      = 5
	quotaWorkers = 5
)

// startControllers starts kube-controller-manager's controllers that
// create or bind what the scheduler reads, on one shared informer
// factory, as kube-controller-manager builds them.
func (c *ControlPlane) startControllers(runCtx, startCtx context.Context) error {
	client := func(agent string) (kubernetes.Interface, error) {
		cfg := restclient.CopyConfig(c.cfg)
		cfg.UserAgent = agent
		return kubernetes.NewForConfig(cfg)
	}
	shared, err := client("shared-informers")
	if err != nil {
		return err
	}
	mdClient, err := metadata.NewForConfig(c.cfg)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(shared, 0)
	mdFactory := metadatainformer.NewSharedInformerFactory(mdClient, 0)
	started := make(chan struct{})

	var runs []func(ctx context.Context)
	add := func(name string, build func(cl kubernetes.Interface) (func(ctx context.Context), error)) error {
		cl, err := client(name)
		if err != nil {
			return err
		}
		run, err := build(cl)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		runs = append(runs, run)
		return nil
	}
	ctx := runCtx

	steps := []struct {
		name  string
		build func(cl kubernetes.Interface) (func(ctx context.Context), error)
	}{
		{"serviceaccount-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			sac, err := serviceaccount.NewServiceAccountsController(controllerLogger(ctx), factory.Core().V1().ServiceAccounts(),
				factory.Core().V1().Namespaces(), cl, serviceaccount.DefaultServiceAccountsControllerOptions())
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { sac.Run(ctx, 1) }, nil
		}},
		{"deployment-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			dc, err := deployment.NewDeploymentController(ctx, factory.Apps().V1().Deployments(), factory.Apps().V1().ReplicaSets(),
				factory.Core().V1().Pods(), cl)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { dc.Run(ctx, workers) }, nil
		}},
		{"replicaset-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			rsc := replicaset.NewReplicaSetController(ctx, factory.Apps().V1().ReplicaSets(), factory.Core().V1().Pods(), cl, replicaset.BurstReplicas)
			return func(ctx context.Context) { rsc.Run(ctx, workers) }, nil
		}},
		{"statefulset-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			ssc := statefulset.NewStatefulSetController(ctx, factory.Core().V1().Pods(), factory.Apps().V1().StatefulSets(),
				factory.Core().V1().PersistentVolumeClaims(), factory.Apps().V1().ControllerRevisions(), cl)
			return func(ctx context.Context) { ssc.Run(ctx, workers) }, nil
		}},
		{"daemon-set-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			dsc, err := daemon.NewDaemonSetsController(ctx, factory.Apps().V1().DaemonSets(), factory.Apps().V1().ControllerRevisions(),
				factory.Core().V1().Pods(), factory.Core().V1().Nodes(), cl, flowcontrol.NewBackOff(time.Second, 15*time.Minute))
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { dsc.Run(ctx, 2) }, nil
		}},
		{"job-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			var wl schedulinginformers.WorkloadInformer
			var pg schedulinginformers.PodGroupInformer
			if utilfeature.DefaultFeatureGate.Enabled(features.WorkloadWithJob) {
				wl = factory.Scheduling().V1beta1().Workloads()
				pg = factory.Scheduling().V1beta1().PodGroups()
			}
			jc, err := job.NewController(ctx, cl, factory.Core().V1().Pods(), factory.Batch().V1().Jobs(), wl, pg)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { jc.Run(ctx, workers) }, nil
		}},
		{"resource-claim-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			rc, err := resourceclaim.NewController(controllerLogger(ctx), cl, factory.Core().V1().Pods(), factory.Scheduling().V1beta1().PodGroups(),
				factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { rc.Run(ctx, 10) }, nil
		}},
		{"persistent-volume-binder", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			// No volume plugin: provisioning is a CSI driver's, which
			// does not run here; binding to existing volumes is the
			// controller's own.
			pvc, err := persistentvolume.NewController(ctx, persistentvolume.ControllerParameters{
				KubeClient:                cl,
				SyncPeriod:                15 * time.Second,
				VolumeInformer:            factory.Core().V1().PersistentVolumes(),
				ClaimInformer:             factory.Core().V1().PersistentVolumeClaims(),
				ClassInformer:             factory.Storage().V1().StorageClasses(),
				PodInformer:               factory.Core().V1().Pods(),
				NodeInformer:              factory.Core().V1().Nodes(),
				EnableDynamicProvisioning: true,
			})
			if err != nil {
				return nil, err
			}
			return pvc.Run, nil
		}},
		{"ephemeral-volume-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			ec, err := ephemeral.NewController(ctx, cl, factory.Core().V1().Pods(), factory.Core().V1().PersistentVolumeClaims())
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) { ec.Run(ctx, workers) }, nil
		}},
		{"resourcequota-controller", func(cl kubernetes.Interface) (func(ctx context.Context), error) {
			dc, err := discovery.NewDiscoveryClientForConfig(c.cfg)
			if err != nil {
				return nil, err
			}
			discoveryFunc := dc.ServerPreferredNamespacedResources
			qc, err := quotainstall.NewQuotaConfigurationForControllers(generic.ListerFuncForResourceFunc(factory.ForResource), factory)
			if err != nil {
				return nil, err
			}
			rq, err := resourcequota.NewController(ctx, &resourcequota.ControllerOptions{
				QuotaClient:               cl.CoreV1(),
				ResourceQuotaInformer:     factory.Core().V1().ResourceQuotas(),
				ResyncPeriod:              controller.StaticResyncPeriodFunc(5 * time.Minute),
				InformerFactory:           informerfactory.NewInformerFactory(factory, mdFactory),
				ReplenishmentResyncPeriod: controller.StaticResyncPeriodFunc(12 * time.Hour),
				DiscoveryFunc:             discoveryFunc,
				IgnoredResourcesFunc:      qc.IgnoredResources,
				InformersStarted:          started,
				Registry:                  generic.NewRegistry(qc.Evaluators()),
				UpdateFilter:              quotainstall.DefaultUpdateFilter(),
			})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) {
				done := make(chan struct{})
				go func() {
					defer close(done)
					rq.Sync(ctx, discoveryFunc, 30*time.Second)
				}()
				rq.Run(ctx, quotaWorkers)
				<-done
			}, nil
		}},
	}
	for _, s := range steps {
		if err := add(s.name, s.build); err != nil {
			return err
		}
	}
	factory.Start(runCtx.Done())
	mdFactory.Start(runCtx.Done())
	close(started)
	c.stop = append(c.stop, func() {
		factory.Shutdown()
		mdFactory.Shutdown()
	})
	for _, run := range runs {
		c.goRun(func() { run(runCtx) })
	}
	for typ, ok := range factory.WaitForCacheSync(startCtx.Done()) {
		if !ok {
			return fmt.Errorf("informer of %v did not sync", typ)
		}
	}
	return nil
}

// controllerLogger is the logger of ctx, as kube-controller-manager
// hands its controllers.
func controllerLogger(ctx context.Context) klog.Logger { return klog.FromContext(ctx) }

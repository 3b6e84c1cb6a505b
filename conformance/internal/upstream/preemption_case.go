package upstream

import (
	"context"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/client-go/informers"
	clientsetfake "k8s.io/client-go/kubernetes/fake"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// PreemptionCase is upstream's answer for a preemption fixture: the
// pods without spec.priority admitted by the Priority admission plugin
// over the input's PriorityClasses, then Preemption's cycle and
// DefaultPreemption evaluation with the nominated pods in the
// framework's nominator and the input's DefaultPreemption arguments.
func PreemptionCase(in *regression.PreemptionInput) regression.PreemptionAnswer {
	var a regression.PreemptionAnswer
	if in.Pod == nil {
		a.Err = "no pod"
		return a
	}
	admit, err := priorityAdmitter(in.PriorityClasses)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	pods, err := admitPods(admit, in.Pods)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	nominated, err := admitPods(admit, in.Nominated)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	one, err := admitPods(admit, []*api.Pod{in.Pod})
	if err != nil {
		a.Err = err.Error()
		return a
	}
	pf := NewPreemptionFrameworkWith(in.Nodes, pods, nominated, in.PDBs, in.Args, 1)
	defer pf.Close()
	up := pf.Run(MustConvert[v1.Pod](one[0]), true)
	switch {
	case up.Fits:
		a.Fits, a.Node = true, up.Node
		return a
	case up.Code == "Error":
		a.Err = up.Message
		return a
	case up.NumCandidates < up.NumPotential:
		a.Err = fmt.Sprintf("%d candidates looked for among %d potential nodes: the answer depends on the offset", up.NumCandidates, up.NumPotential)
		return a
	}
	a.Code, a.Message = up.Code, up.Message
	if len(up.Candidates) == 0 {
		return a
	}
	a.Candidates = map[string]regression.PreemptionCandidateAnswer{}
	ns := map[string]string{}
	for _, p := range pods {
		ns[p.Name] = p.Namespace
	}
	for node, c := range up.Candidates {
		ca := regression.PreemptionCandidateAnswer{NumPDBViolations: int(c.NumPDBViolations)}
		for _, v := range c.Victims {
			ca.Victims = append(ca.Victims, namespaced(ns[v], v))
		}
		a.Candidates[node] = ca
	}
	a.Tied = append([]string(nil), up.Tied...)
	sort.Strings(a.Tied)
	a.Nominated = a.Tied[0]
	best := a.Candidates[a.Nominated]
	a.Victims, a.NumPDBViolations = best.Victims, best.NumPDBViolations
	a.Message = regression.PreemptionMessage(a.Nominated, len(best.Victims))
	return a
}

func namespaced(ns, name string) string {
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + name
}

// priorityAdmitter returns the Priority admission plugin over classes,
// admitting a pod on create.
func priorityAdmitter(classes []api.PriorityClass) (func(*v1.Pod) (*v1.Pod, error), error) {
	client := clientsetfake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	store := factory.Scheduling().V1().PriorityClasses().Informer().GetStore()
	for i := range classes {
		if err := store.Add(MustConvert[schedulingv1.PriorityClass](&classes[i])); err != nil {
			return nil, err
		}
	}
	pl := priority.NewPlugin()
	pl.SetExternalKubeClientSet(client)
	pl.SetExternalKubeInformerFactory(factory)
	if err := pl.ValidateInitialization(); err != nil {
		return nil, err
	}
	return func(vp *v1.Pod) (*v1.Pod, error) {
		pod := &core.Pod{}
		if err := corev1defaults.Convert_v1_Pod_To_core_Pod(vp, pod, nil); err != nil {
			return nil, err
		}
		attrs := admission.NewAttributesRecord(pod, nil, core.Kind("Pod").WithVersion("v1"), pod.Namespace, pod.Name, core.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
		if err := pl.Admit(context.Background(), attrs, nil); err != nil {
			return nil, err
		}
		out := &v1.Pod{}
		if err := corev1defaults.Convert_core_Pod_To_v1_Pod(pod, out, nil); err != nil {
			return nil, err
		}
		return out, nil
	}, nil
}

// admitPods admits the pods without spec.priority (a stored pod keeps
// the priority it was admitted with) and returns them in schedkit's form.
func admitPods(admit func(*v1.Pod) (*v1.Pod, error), pods []*api.Pod) ([]*api.Pod, error) {
	out := make([]*api.Pod, len(pods))
	for i, p := range pods {
		out[i] = p
		if p.Spec.Priority != nil {
			continue
		}
		vp, err := admit(MustConvert[v1.Pod](p))
		if err != nil {
			return nil, err
		}
		out[i] = MustConvert[api.Pod](vp)
	}
	return out, nil
}

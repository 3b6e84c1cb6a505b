package upstream

import (
	"errors"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apiserver/pkg/admission"
	resourcehelper "k8s.io/component-helpers/resource"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

var logger = klog.Background()

// Quantity is apimachinery's answer for a quantity input.
func Quantity(in *regression.QuantityInput) regression.QuantityAnswer {
	var a regression.QuantityAnswer
	var u resource.Quantity
	js := jsonString(in.S)
	if err := u.UnmarshalJSON(js); err != nil {
		a.Unmarshal = "error"
	} else {
		a.Unmarshal = u.String()
	}
	if n := in.New; n != nil {
		a.New = resource.NewQuantity(n.Value, resource.Format(n.Format)).String()
		a.NewMilli = resource.NewMilliQuantity(n.Value, resource.Format(n.Format)).String()
		a.NewScaled = resource.NewScaledQuantity(n.Value, resource.Scale(n.Scale)).String()
	}
	q, err := resource.ParseQuantity(in.S)
	if err != nil {
		a.Err = regression.QuantityErrName(err, resource.ErrFormatWrong, resource.ErrSuffix, resource.ErrNumeric)
		return a
	}
	a.String = q.String()
	a.Format = string(q.Format)
	a.Value = q.Value()
	a.MilliValue = q.MilliValue()
	a.Sign = q.Sign()
	if v, ok := q.AsInt64(); ok {
		a.AsInt64 = &v
	}
	if b, err := q.MarshalJSON(); err != nil {
		a.JSON = "error: " + err.Error()
	} else {
		a.JSON = string(b)
	}
	if in.Scale != nil {
		v := q.ScaledValue(resource.Scale(*in.Scale))
		a.Scaled = &v
		r := q.DeepCopy()
		exact := r.RoundUp(resource.Scale(*in.Scale))
		a.RoundUp, a.Exact = r.String(), &exact
	}
	if in.Other == nil {
		return a
	}
	o, err := resource.ParseQuantity(*in.Other)
	if err != nil {
		return a
	}
	c := q.Cmp(o)
	a.Cmp = &c
	sum := q.DeepCopy()
	sum.Add(o)
	a.Add = sum.String()
	diff := q.DeepCopy()
	diff.Sub(o)
	a.Sub = diff.String()
	return a
}

func listStrings[K ~string](l map[K]resource.Quantity) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// DefaultedPod converts pod to v1 and applies the API server's pod
// defaulting (limits → requests for containers without requests).
func DefaultedPod(pod *api.Pod) *v1.Pod {
	p := MustConvert[v1.Pod](pod)
	corev1defaults.SetDefaults_Pod(p)
	return p
}

// PodResources is component-helpers', the scheduler's and the qos
// helper's answer for a pod resources input.
func PodResources(in *regression.PodResourcesInput) regression.PodResourcesAnswer {
	pod := MustConvert[v1.Pod](in.Pod)
	opts := resourcehelper.PodResourcesOptions{
		UseStatusResources: in.Options.UseStatusResources,
		// InPlacePodLevelResourcesVerticalScaling is on by default in
		// v1.37, so status resources include the pod-level ones.
		InPlacePodLevelResourcesVerticalScalingEnabled: in.Options.UseStatusResources,
		ExcludeOverhead:             in.Options.ExcludeOverhead,
		SkipPodLevelResources:       in.Options.SkipPodLevelResources,
		SkipContainerLevelResources: in.Options.SkipContainerLevelResources,
	}
	if in.Options.NonMissingDefaults {
		opts.NonMissingContainerRequests = v1.ResourceList{
			v1.ResourceCPU:    *resource.NewMilliQuantity(100, resource.DecimalSI),
			v1.ResourceMemory: *resource.NewQuantity(200*1024*1024, resource.DecimalSI),
		}
	}
	var a regression.PodResourcesAnswer
	a.Requests = listStrings(resourcehelper.PodRequests(pod, opts))
	a.Limits = listStrings(resourcehelper.PodLimits(pod, opts))
	pi, err := schedframework.NewPodInfo(MustConvert[v1.Pod](in.Pod))
	if err != nil {
		panic(err)
	}
	r := pi.CalculateResource()
	a.NonZero = [2]int64{r.Non0CPU, r.Non0Mem}
	a.PodInfo = regression.SchedulerResource{
		MilliCPU:         r.Resource.GetMilliCPU(),
		Memory:           r.Resource.GetMemory(),
		EphemeralStorage: r.Resource.GetEphemeralStorage(),
		NonZeroMilliCPU:  r.Non0CPU,
		NonZeroMemory:    r.Non0Mem,
	}
	for k, v := range r.Resource.GetScalarResources() {
		if v == 0 {
			continue
		}
		if a.PodInfo.Scalars == nil {
			a.PodInfo.Scalars = map[string]int64{}
		}
		a.PodInfo.Scalars[string(k)] = v
	}
	a.QOS = string(qos.ComputePodQOS(pod))
	a.QOSOf = string(qos.GetPodQOS(pod))
	a.QOSDefaulted = string(qos.ComputePodQOS(DefaultedPod(in.Pod)))
	return a
}

// LimitRange is the LimitRanger admission plugin's answer for a LimitRange
// input: the pod and LimitRanges defaulted as the API server does, every
// LimitRange's defaults merged in (Admit), the pod-level resources
// defaulted (PrepareForCreate), then every LimitRange validated in order
// until one fails (Validate).
func LimitRange(in *regression.LimitRangeInput) regression.LimitRangeAnswer {
	v1pod := DefaultedPod(in.Pod)
	pod := &core.Pod{}
	if err := corev1defaults.Convert_v1_Pod_To_core_Pod(v1pod, pod, nil); err != nil {
		panic(err)
	}
	var ranges []*v1.LimitRange
	for i := range in.LimitRanges {
		lr := MustConvert[v1.LimitRange](&in.LimitRanges[i])
		corev1defaults.SetObjectDefaults_LimitRange(lr)
		ranges = append(ranges, lr)
	}
	for _, lr := range ranges {
		if err := limitranger.PodMutateLimitFunc(lr, pod); err != nil {
			panic(err)
		}
	}
	// The API server runs the pod strategy's PrepareForCreate between
	// the mutating and the validating admission: with
	// PodLevelResourcesFixDefaulting (on in v1.37) it defaults pod-level
	// resources there, over LimitRanger's container defaults.
	podutil.DefaultPodLevelResources(pod)
	a := regression.LimitRangeAnswer{Violated: -1}
	for i, lr := range ranges {
		err := limitranger.PodValidateLimitFunc(lr, pod)
		if err == nil {
			continue
		}
		a.Violated = i
		if regression.LimitRangeTextComparable(&in.LimitRanges[i]) {
			attrs := admission.NewAttributesRecord(pod, nil, core.Kind("Pod").WithVersion("v1"), pod.Namespace, pod.Name, core.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
			a.Text = admission.NewForbidden(attrs, err).Error()
		}
		var agg utilerrors.Aggregate
		if errors.As(err, &agg) {
			for _, e := range agg.Errors() {
				a.Errors = append(a.Errors, e.Error())
			}
		} else {
			a.Errors = append(a.Errors, err.Error())
		}
		a.Errors = regression.SortedUnique(a.Errors)
		return a
	}
	a.Admitted = true
	a.Containers = coreContainers(pod.Spec.Containers)
	a.InitContainers = coreContainers(pod.Spec.InitContainers)
	a.Annotation = pod.Annotations["kubernetes.io/limit-ranger"]
	return a
}

func coreContainers(cs []core.Container) []regression.ContainerResources {
	var out []regression.ContainerResources
	for _, c := range cs {
		cr := regression.ContainerResources{Name: c.Name}
		if len(c.Resources.Requests) > 0 {
			cr.Requests = listStrings(c.Resources.Requests)
		}
		if len(c.Resources.Limits) > 0 {
			cr.Limits = listStrings(c.Resources.Limits)
		}
		out = append(out, cr)
	}
	return out
}

// Taints is core/v1's and component-helpers' answer for a taints input.
func Taints(in *regression.TaintsInput) regression.TaintsAnswer {
	tols := *MustConvert[[]v1.Toleration](in.Tolerations)
	taints := *MustConvert[[]v1.Taint](in.Taints)
	if in.Tolerations == nil {
		tols = nil
	}
	a := regression.TaintsAnswer{Tolerates: [][]bool{}, Any: []bool{}}
	for i := range tols {
		row := []bool{}
		for j := range taints {
			row = append(row, tols[i].ToleratesTaint(logger, &taints[j], in.ComparisonOperators))
		}
		a.Tolerates = append(a.Tolerates, row)
	}
	for j := range taints {
		a.Any = append(a.Any, corev1helpers.TolerationsTolerateTaint(logger, tols, &taints[j], in.ComparisonOperators))
	}
	filter := func(t *v1.Taint) bool {
		return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
	}
	if t, ok := corev1helpers.FindMatchingUntoleratedTaint(logger, taints, tols, filter, in.ComparisonOperators); ok {
		a.Untolerated = Back[api.Taint](&t)
	}
	if t, ok := corev1helpers.FindMatchingUntoleratedTaint(logger, taints, tols, nil, in.ComparisonOperators); ok {
		a.UntoleratedAny = Back[api.Taint](&t)
	}
	return a
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// NodeAffinity is component-helpers' answer for a node affinity input.
func NodeAffinity(in *regression.NodeAffinityInput) regression.NodeAffinityAnswer {
	pod := MustConvert[v1.Pod](in.Pod)
	node := MustConvert[v1.Node](in.Node)
	if in.Node == nil {
		node = nil
	}
	var a regression.NodeAffinityAnswer
	ok, err := nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)
	a.Required, a.RequiredErr = ok, errString(err)
	var ns *v1.NodeSelector
	var pref []v1.PreferredSchedulingTerm
	if pod.Spec.Affinity != nil && pod.Spec.Affinity.NodeAffinity != nil {
		ns = pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		pref = pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if ns != nil {
		ok, err = corev1helpers.MatchNodeSelectorTerms(node, ns)
		a.Terms, a.TermsErr = ok, errString(err)
		_, err = nodeaffinity.NewNodeSelector(ns)
		a.NewErr = errString(err)
	}
	p, err := nodeaffinity.NewPreferredSchedulingTerms(pref)
	if err != nil {
		a.PreferredErr = err.Error()
	} else if node != nil {
		a.Preferred = p.Score(node)
	}
	return a
}

// LabelSelector is apimachinery's answer for a label selector input.
func LabelSelector(in *regression.LabelSelectorInput) regression.LabelSelectorAnswer {
	var sel labels.Selector
	var err error
	var ls *metav1.LabelSelector
	if in.String != nil {
		sel, err = labels.Parse(*in.String)
	} else {
		if in.Selector != nil {
			ls = MustConvert[metav1.LabelSelector](in.Selector)
		}
		sel, err = metav1.LabelSelectorAsSelector(ls)
	}
	var a regression.LabelSelectorAnswer
	if err != nil {
		a.Err = err.Error()
		if in.String == nil && regression.InvalidMatchLabels(in.Selector, func(k, v string) bool {
			_, err := labels.NewRequirement(k, selection.Equals, []string{v})
			return err == nil
		}) > 1 {
			a.Err = "invalid"
		}
		return a
	}
	a.Matches = sel.Matches(labels.Set(in.Labels))
	a.String = sel.String()
	a.Empty = sel.Empty()
	return a
}

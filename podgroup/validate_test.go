package podgroup

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/features"
)

func ptr[T any](v T) *T { return &v }

// basePodGroup is upstream's podGroup fixture of
// pkg/registry/scheduling/podgroup/strategy_test.go.
func basePodGroup() *api.PodGroup {
	return &api.PodGroup{
		ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: "default"},
		Spec: api.PodGroupSpec{
			WorkloadRef:      &api.WorkloadReference{WorkloadName: "w", TemplateName: "t"},
			SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: 5}},
			DisruptionMode:   &api.DisruptionMode{Single: &api.SingleDisruptionMode{}},
		},
	}
}

// TestValidatePodGroupCreate pins the rows of upstream's
// pkg/registry/scheduling/podgroup TestStrategyCreate with
// GenericWorkload on and the other gates at their defaults.
func TestValidatePodGroupCreate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*api.PodGroup)
		err    string
		check  func(*api.PodGroup) bool
	}{
		{name: "simple", modify: func(*api.PodGroup) {}},
		{name: "negative min count", modify: func(pg *api.PodGroup) { pg.Spec.SchedulingPolicy.Gang.MinCount = -1 },
			err: "spec.schedulingPolicy.gang.minCount: Invalid value: -1: must be greater than or equal to 1"},
		{name: "two scheduling policies", modify: func(pg *api.PodGroup) { pg.Spec.SchedulingPolicy.Basic = &api.BasicSchedulingPolicy{} },
			err: "must specify exactly one of: `basic`, `gang`"},
		{name: "no scheduling policy is set", modify: func(pg *api.PodGroup) { pg.Spec.SchedulingPolicy = api.PodGroupSchedulingPolicy{} },
			err: "must specify one of: `basic`, `gang`"},
		{name: "drop status on creation", modify: func(pg *api.PodGroup) {
			pg.Status.Conditions = []api.Condition{{Type: api.PodGroupInitiallyScheduled, Status: "False", Reason: "Unschedulable"}}
		}, check: func(pg *api.PodGroup) bool { return len(pg.Status.Conditions) == 0 }},
		{name: "multiple topology constraints, topology aware scheduling disabled", modify: func(pg *api.PodGroup) {
			pg.Spec.SchedulingConstraints = &api.PodGroupSchedulingConstraints{Topology: []api.TopologyConstraint{{Key: "foo"}, {Key: "bar"}}}
		}, check: func(pg *api.PodGroup) bool { return pg.Spec.SchedulingConstraints == nil }},
		{name: "invalid topology key, topology aware scheduling disabled", modify: func(pg *api.PodGroup) {
			pg.Spec.SchedulingConstraints = &api.PodGroupSchedulingConstraints{Topology: []api.TopologyConstraint{{Key: "foo-"}}}
		}},
		{name: "disruption mode all", modify: func(pg *api.PodGroup) { pg.Spec.DisruptionMode = &api.DisruptionMode{All: &api.AllDisruptionMode{}} }},
		{name: "both disruption modes set", modify: func(pg *api.PodGroup) { pg.Spec.DisruptionMode.All = &api.AllDisruptionMode{} },
			err: "must specify exactly one of"},
		{name: "invalid priorityClassName", modify: func(pg *api.PodGroup) { pg.Spec.PriorityClassName = "invalid/priority/class/name" },
			err: "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"},
		{name: "priorityClassName set", modify: func(pg *api.PodGroup) { pg.Spec.PriorityClassName = "high-priority" }},
		{name: "priority set", modify: func(pg *api.PodGroup) { pg.Spec.Priority = ptr(int32(1000)) }},
		{name: "too high priority", modify: func(pg *api.PodGroup) { pg.Spec.Priority = ptr(int32(1000000001)) },
			err: "must be less than or equal to 1000000000"},
		{name: "podgroup preemptionPolicy disabled - drop preemptionPolicy", modify: func(pg *api.PodGroup) {
			pg.Spec.PreemptionPolicy = ptr(api.PreemptionPolicy("Never"))
		}, check: func(pg *api.PodGroup) bool { return pg.Spec.PreemptionPolicy == nil }},
		{name: "podgroup preemptionPolicy disabled - drop invalid preemptionPolicy", modify: func(pg *api.PodGroup) {
			pg.Spec.PreemptionPolicy = ptr(api.PreemptionPolicy("Invalid"))
		}, check: func(pg *api.PodGroup) bool { return pg.Spec.PreemptionPolicy == nil }},
		// TestDropPodGroupParentCompositePodGroupNameField, gate off.
		{name: "drop parentCompositePodGroupName", modify: func(pg *api.PodGroup) { pg.Spec.ParentCompositePodGroupName = ptr("p") },
			check: func(pg *api.PodGroup) bool { return pg.Spec.ParentCompositePodGroupName == nil }},
		// TestDropPodGroupTemplateResourceClaims, DRAWorkloadResourceClaims off.
		{name: "drop resourceClaims", modify: func(pg *api.PodGroup) { pg.Spec.ResourceClaims = []api.PodGroupResourceClaim{{Name: "c"}} },
			check: func(pg *api.PodGroup) bool { return pg.Spec.ResourceClaims == nil }},
	}
	g := features.MustParse("GenericWorkload=true")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := basePodGroup()
			tt.modify(pg)
			DropDisabledPodGroupFields(pg, g)
			errs := ValidatePodGroup(pg, g)
			if tt.err == "" {
				if len(errs) != 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
			} else {
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.err) {
					t.Fatalf("errors %v, want one containing %q", errs, tt.err)
				}
			}
			if tt.check != nil && !tt.check(pg) {
				t.Errorf("object after create: %+v", pg.Spec)
			}
		})
	}
}

func baseWorkload() *api.Workload {
	return &api.Workload{
		ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: "default"},
		Spec: api.WorkloadSpec{
			ControllerRef: &api.WorkloadControllerReference{APIGroup: "batch", Kind: "Job", Name: "job"},
			PodGroupTemplates: []api.PodGroupTemplate{
				{Name: "workers", SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: 4}}},
			},
		},
	}
}

// TestValidateWorkloadCreate pins rows of upstream's
// pkg/registry/scheduling/workload TestStrategyCreate and
// pkg/apis/scheduling/validation TestValidateWorkload.
func TestValidateWorkloadCreate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*api.Workload)
		err    string
	}{
		{name: "simple", modify: func(*api.Workload) {}},
		{name: "no pod group templates", modify: func(w *api.Workload) { w.Spec.PodGroupTemplates = nil },
			err: "spec: Invalid value: \"\": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`"},
		{name: "too many pod group templates", modify: func(w *api.Workload) {
			for i := range 8 {
				w.Spec.PodGroupTemplates = append(w.Spec.PodGroupTemplates, api.PodGroupTemplate{Name: "t" + string(rune('a'+i)), SchedulingPolicy: api.PodGroupSchedulingPolicy{Basic: &api.BasicSchedulingPolicy{}}})
			}
		}, err: "spec.podGroupTemplates: Too many: 9: must have at most 8 items"},
		{name: "duplicate template names", modify: func(w *api.Workload) {
			w.Spec.PodGroupTemplates = append(w.Spec.PodGroupTemplates, w.Spec.PodGroupTemplates[0])
		},
			err: `spec.podGroupTemplates[1]: Duplicate value: "workers"`},
		{name: "invalid template name", modify: func(w *api.Workload) { w.Spec.PodGroupTemplates[0].Name = "a.b" },
			err: `spec.podGroupTemplates[0].name: Invalid value: "a.b": must not contain dots`},
		{name: "no scheduling policy", modify: func(w *api.Workload) { w.Spec.PodGroupTemplates[0].SchedulingPolicy = api.PodGroupSchedulingPolicy{} },
			err: "spec.podGroupTemplates[0].schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`"},
		{name: "zero min count", modify: func(w *api.Workload) { w.Spec.PodGroupTemplates[0].SchedulingPolicy.Gang.MinCount = 0 },
			err: "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1"},
		{name: "controllerRef without kind", modify: func(w *api.Workload) { w.Spec.ControllerRef.Kind = "" },
			err: "spec.controllerRef.kind: Required value"},
		{name: "multiple priority configurations", modify: func(w *api.Workload) {
			w.Spec.PodGroupTemplates = append(w.Spec.PodGroupTemplates, api.PodGroupTemplate{Name: "b", PriorityClassName: "high", SchedulingPolicy: api.PodGroupSchedulingPolicy{Basic: &api.BasicSchedulingPolicy{}}})
		}, err: "spec: Invalid value: null: detected multiple priority configurations"},
		// TestDropCompositePodGroupTemplates: CompositePodGroup off.
		{name: "composite templates dropped", modify: func(w *api.Workload) {
			w.Spec.CompositePodGroupTemplates = []api.CompositePodGroupTemplate{{Name: "c"}}
		}},
	}
	g := features.MustParse("GenericWorkload=true")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := baseWorkload()
			tt.modify(w)
			DropDisabledWorkloadFields(w, g)
			errs := ValidateWorkload(w, g)
			if tt.err == "" {
				if len(errs) != 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Error() != tt.err {
				t.Fatalf("errors %v, want %q", errs, tt.err)
			}
		})
	}
}

// TestValidateSchedulingGroup pins core validation's
// validateSchedulingGroup.
func TestValidateSchedulingGroup(t *testing.T) {
	if errs := ValidateSchedulingGroup(&api.PodSchedulingGroup{PodGroupName: ptr("g")}); len(errs) != 0 {
		t.Fatal(errs)
	}
	errs := ValidateSchedulingGroup(&api.PodSchedulingGroup{})
	if len(errs) != 1 || errs[0].Error() != "spec.schedulingGroup.podGroupName: Invalid value: null: must specify one of: `podGroupName`" {
		t.Fatal(errs)
	}
	errs = ValidateSchedulingGroup(&api.PodSchedulingGroup{PodGroupName: ptr("G")})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `Invalid value: "G": a lowercase RFC 1123 subdomain`) {
		t.Fatal(errs)
	}
}

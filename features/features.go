package features

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// PreRelease is a gate's maturity, as component-base spells it.
type PreRelease string

// The maturities of the gates schedkit knows.
const (
	Alpha PreRelease = "ALPHA"
	Beta  PreRelease = "BETA"
	GA    PreRelease = ""
)

// Names of the gates schedkit knows. The scheduler reads each of them in
// v1.37.2 (pkg/scheduler/framework/plugins/feature).
const (
	CompositePodGroup                            = "CompositePodGroup"
	DRAAdminAccess                               = "DRAAdminAccess"
	DRAConsumableCapacity                        = "DRAConsumableCapacity"
	DRADerivedAttributes                         = "DRADerivedAttributes"
	DRADeviceBindingConditions                   = "DRADeviceBindingConditions"
	DRADeviceCompatibilityGroups                 = "DRADeviceCompatibilityGroups"
	DRADeviceTaints                              = "DRADeviceTaints"
	DRAExtendedResource                          = "DRAExtendedResource"
	DRAFractionalCapacityRange                   = "DRAFractionalCapacityRange"
	DRAListTypeAttributes                        = "DRAListTypeAttributes"
	DRANodeAllocatableResources                  = "DRANodeAllocatableResources"
	DRAOptionalNodeOperations                    = "DRAOptionalNodeOperations"
	DRAPartitionableDevices                      = "DRAPartitionableDevices"
	DRAPrioritizedList                           = "DRAPrioritizedList"
	DRAResourceClaimDeviceStatus                 = "DRAResourceClaimDeviceStatus"
	DRASchedulerFilterTimeout                    = "DRASchedulerFilterTimeout"
	DRAWorkloadResourceClaims                    = "DRAWorkloadResourceClaims"
	DynamicResourceAllocation                    = "DynamicResourceAllocation"
	GenericWorkload                              = "GenericWorkload"
	InPlacePodLevelResourcesVerticalScaling      = "InPlacePodLevelResourcesVerticalScaling"
	InPlacePodVerticalScaling                    = "InPlacePodVerticalScaling"
	InPlacePodVerticalScalingSchedulerPreemption = "InPlacePodVerticalScalingSchedulerPreemption"
	InterPodAffinityHostnameFastPath             = "InterPodAffinityHostnameFastPath"
	MatchLabelKeysInPodTopologySpread            = "MatchLabelKeysInPodTopologySpread"
	NodeDeclaredFeatures                         = "NodeDeclaredFeatures"
	NodeInclusionPolicyInPodTopologySpread       = "NodeInclusionPolicyInPodTopologySpread"
	PodGroupPreemptionPolicy                     = "PodGroupPreemptionPolicy"
	PodLevelResources                            = "PodLevelResources"
	SchedulerAsyncPreemption                     = "SchedulerAsyncPreemption"
	StorageCapacityScoring                       = "StorageCapacityScoring"
	TaintTolerationComparisonOperators           = "TaintTolerationComparisonOperators"
	TopologyAwareWorkloadScheduling              = "TopologyAwareWorkloadScheduling"
	VolumeAttributesClass                        = "VolumeAttributesClass"
	VolumeLimitScaling                           = "VolumeLimitScaling"
)

// Spec is one gate as kube-scheduler v1.37.2 registers it, at emulation
// version 1.37 and its default minimum compatibility version 1.36.
type Spec struct {
	// Name of the gate.
	Name string
	// Default is the value when --feature-gates does not name the gate.
	Default bool
	// PreRelease is the gate's maturity at 1.37.
	PreRelease PreRelease
	// LockToDefault gates may not be set to the other value.
	LockToDefault bool
	// DependsOn lists the gates that must be on while this one is on.
	DependsOn []string
	// Modelled says schedkit models both values of the gate; a gate that
	// is not modelled may be named only with its default.
	Modelled bool
}

// specs is the table of known gates, sorted by name. It is read only.
var specs = []Spec{
	{Name: CompositePodGroup, PreRelease: Alpha, DependsOn: []string{GenericWorkload, TopologyAwareWorkloadScheduling}},
	{Name: DRAAdminAccess, Default: true, PreRelease: GA, LockToDefault: true, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAConsumableCapacity, Default: true, PreRelease: Beta, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRADerivedAttributes, PreRelease: Alpha, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRADeviceBindingConditions, Default: true, PreRelease: Beta, DependsOn: []string{DynamicResourceAllocation, DRAResourceClaimDeviceStatus}},
	{Name: DRADeviceCompatibilityGroups, PreRelease: Alpha, DependsOn: []string{DynamicResourceAllocation, DRAPartitionableDevices}},
	{Name: DRADeviceTaints, Default: true, PreRelease: GA, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAExtendedResource, Default: true, PreRelease: GA, LockToDefault: true, DependsOn: []string{DynamicResourceAllocation}},
	// The 1.37 entry that turns it on needs --min-compatibility-version
	// 1.37; kube-scheduler's default is 1.36, so the gate is off.
	{Name: DRAFractionalCapacityRange, PreRelease: Beta, DependsOn: []string{DRAConsumableCapacity}, Modelled: true},
	{Name: DRAListTypeAttributes, PreRelease: Alpha, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRANodeAllocatableResources, PreRelease: Alpha, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAOptionalNodeOperations, PreRelease: Alpha, DependsOn: []string{DynamicResourceAllocation, NodeDeclaredFeatures}},
	{Name: DRAPartitionableDevices, Default: true, PreRelease: Beta, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAPrioritizedList, Default: true, PreRelease: GA, LockToDefault: true, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAResourceClaimDeviceStatus, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: DRASchedulerFilterTimeout, Default: true, PreRelease: Beta, DependsOn: []string{DynamicResourceAllocation}},
	{Name: DRAWorkloadResourceClaims, PreRelease: Beta, DependsOn: []string{DynamicResourceAllocation, GenericWorkload}},
	{Name: DynamicResourceAllocation, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: GenericWorkload, PreRelease: Beta, Modelled: true},
	{Name: InPlacePodLevelResourcesVerticalScaling, Default: true, PreRelease: Beta, DependsOn: []string{InPlacePodVerticalScaling, PodLevelResources, NodeDeclaredFeatures}},
	{Name: InPlacePodVerticalScaling, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: InPlacePodVerticalScalingSchedulerPreemption, PreRelease: Alpha, DependsOn: []string{InPlacePodVerticalScaling}},
	{Name: InterPodAffinityHostnameFastPath, PreRelease: Alpha},
	{Name: MatchLabelKeysInPodTopologySpread, Default: true, PreRelease: Beta},
	{Name: NodeDeclaredFeatures, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: NodeInclusionPolicyInPodTopologySpread, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: PodGroupPreemptionPolicy, PreRelease: Alpha, DependsOn: []string{GenericWorkload}},
	{Name: PodLevelResources, Default: true, PreRelease: Beta},
	{Name: SchedulerAsyncPreemption, Default: true, PreRelease: Beta},
	{Name: StorageCapacityScoring, Default: true, PreRelease: Beta},
	{Name: TaintTolerationComparisonOperators, PreRelease: Alpha},
	{Name: TopologyAwareWorkloadScheduling, PreRelease: Alpha, DependsOn: []string{GenericWorkload}},
	{Name: VolumeAttributesClass, Default: true, PreRelease: GA, LockToDefault: true},
	{Name: VolumeLimitScaling, Default: true, PreRelease: Beta},
}

// Known returns the gates schedkit knows, sorted by name.
func Known() []Spec {
	out := make([]Spec, len(specs))
	for i, s := range specs {
		s.DependsOn = slices.Clone(s.DependsOn)
		out[i] = s
	}
	return out
}

// Lookup returns the gate named name.
func Lookup(name string) (Spec, bool) {
	i, ok := slices.BinarySearchFunc(specs, name, func(s Spec, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return Spec{}, false
	}
	return specs[i], true
}

// Gates is a set of feature gate values. The zero Gates is v1.37.2's
// defaults. A Gates is a value: Set and Parse return new ones.
type Gates struct {
	// set holds the gates named explicitly; it is never written after
	// the Gates is returned.
	set map[string]bool
}

// Defaults returns the gates at their v1.37.2 defaults.
func Defaults() Gates { return Gates{} }

// Enabled reports whether the gate named name is on. An unknown name is
// off.
func (g Gates) Enabled(name string) bool {
	if v, ok := g.set[name]; ok {
		return v
	}
	s, _ := Lookup(name)
	return s.Default
}

// GenericWorkload reports whether the GenericWorkload gate is on.
func (g Gates) GenericWorkload() bool { return g.Enabled(GenericWorkload) }

// IsDefault reports whether every gate is at its default.
func (g Gates) IsDefault() bool {
	for k, v := range g.set {
		if s, _ := Lookup(k); s.Default != v {
			return false
		}
	}
	return true
}

// String lists the gates set explicitly as --feature-gates takes them,
// sorted by name.
func (g Gates) String() string {
	keys := make([]string, 0, len(g.set))
	for k := range g.set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strconv.FormatBool(g.set[k])
	}
	return strings.Join(parts, ",")
}

// With returns g with the gates of m set, checked as Parse checks them.
func (g Gates) With(m map[string]bool) (Gates, error) {
	out := Gates{set: make(map[string]bool, len(g.set)+len(m))}
	for k, v := range g.set {
		out.set[k] = v
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		s, ok := Lookup(k)
		if !ok {
			return Gates{}, fmt.Errorf("unrecognized feature gate: %s", k)
		}
		if s.LockToDefault && s.Default != v {
			return Gates{}, fmt.Errorf("cannot set feature gate %v to %v, feature is locked to %v", k, v, s.Default)
		}
		if !s.Modelled && s.Default != v {
			return Gates{}, fmt.Errorf("cannot set feature gate %v to %v: schedkit models it only at its v1.37.2 default (%v)", k, v, s.Default)
		}
		out.set[k] = v
	}
	for _, s := range specs {
		if !out.Enabled(s.Name) {
			continue
		}
		var off []string
		for _, d := range s.DependsOn {
			if !out.Enabled(d) {
				off = append(off, d)
			}
		}
		if len(off) > 0 {
			return Gates{}, fmt.Errorf("%s is enabled, but depends on features that are disabled: [%s]", s.Name, strings.Join(off, " "))
		}
	}
	return out, nil
}

// Parse reads gates as kube-scheduler's --feature-gates flag does:
// comma-separated NAME=BOOL pairs, blanks around names and values
// ignored, BOOL as strconv.ParseBool reads it. Errors use
// component-base's wording: an unknown gate is "unrecognized feature
// gate: NAME", a locked gate set to the other value is "cannot set
// feature gate NAME to V, feature is locked to D".
func Parse(value string) (Gates, error) {
	m := map[string]bool{}
	for _, s := range strings.Split(value, ",") {
		if len(s) == 0 {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return Gates{}, fmt.Errorf("missing bool value for %s", k)
		}
		v = strings.TrimSpace(v)
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Gates{}, fmt.Errorf("invalid value of %s=%s, err: %v", k, v, err)
		}
		m[k] = b
	}
	return Gates{}.With(m)
}

// MustParse is Parse for literals in tests and examples; it panics on an
// error.
func MustParse(value string) Gates {
	g, err := Parse(value)
	if err != nil {
		panic(err)
	}
	return g
}

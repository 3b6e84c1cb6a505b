package app

import (
	"strings"

	"github.com/schedkit/schedkit/scheduler"
)

// nodeDevices is DynamicResources' part of a node in explain's JSON: its
// own verdict (code Success when it found the devices, whatever the
// other plugins say) and each claim's devices there.
type nodeDevices struct {
	Code    string         `json:"code"`
	Reasons []string       `json:"reasons,omitempty"`
	Claims  []claimDevices `json:"claims,omitempty"`
}

// claimDevices is one of the pod's claims on a node: the pod's entry,
// the claim, whether it was allocated before (its devices are fixed)
// and the devices, one per allocation result.
type claimDevices struct {
	PodClaim  string         `json:"podClaim"`
	Claim     string         `json:"claim"`
	Allocated bool           `json:"allocated,omitempty"`
	Devices   []deviceResult `json:"devices"`
}

// deviceResult is one allocation result as upstream names it.
type deviceResult struct {
	Request string `json:"request"`
	Driver  string `json:"driver"`
	Pool    string `json:"pool"`
	Device  string `json:"device"`
}

func devicesResult(nd *scheduler.NodeDevices) *nodeDevices {
	if nd == nil {
		return nil
	}
	out := &nodeDevices{Code: nd.Status.Code().String(), Reasons: nd.Status.Reasons()}
	for _, c := range nd.Claims {
		cd := claimDevices{PodClaim: c.PodClaim, Claim: c.Claim, Allocated: c.Allocated, Devices: []deviceResult{}}
		for _, r := range c.Devices {
			cd.Devices = append(cd.Devices, deviceResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device})
		}
		out.Claims = append(out.Claims, cd)
	}
	return out
}

// devicesText is a node's devices in one line: per claim entry and
// request, "entry/request: driver/pool/device, …", claims joined by
// "; ", an allocated claim marked "(allocated)". "-" when there are
// none.
func devicesText(nd *nodeDevices) string {
	if nd == nil || len(nd.Claims) == 0 {
		return "-"
	}
	var parts []string
	for _, c := range nd.Claims {
		entry := c.PodClaim
		if entry == "" {
			entry = c.Claim
		}
		var req string
		var devs []string
		flush := func() {
			if req == "" {
				return
			}
			t := entry + "/" + req + ": " + strings.Join(devs, ", ")
			if c.Allocated {
				t += " (allocated)"
			}
			parts = append(parts, t)
		}
		for _, d := range c.Devices {
			if d.Request != req {
				flush()
				req, devs = d.Request, nil
			}
			devs = append(devs, d.Driver+"/"+d.Pool+"/"+d.Device)
		}
		flush()
		if len(c.Devices) == 0 {
			parts = append(parts, entry+": no devices")
		}
	}
	return strings.Join(parts, "; ")
}

// devicesRejection is what a rejected node's REASONS add for a pod with
// claims when another plugin rejected the node: DynamicResources' own
// reasons there, or "" when it found the devices or rejected it itself.
func devicesRejection(nr *nodeResult) string {
	nd := nr.Devices
	if nd == nil || nd.Code == "Success" || nr.Plugin == "DynamicResources" {
		return ""
	}
	return "DynamicResources: " + strings.Join(nd.Reasons, "; ")
}

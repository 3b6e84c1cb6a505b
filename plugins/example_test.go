package plugins

import (
	"fmt"

	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/imagelocality"
	"github.com/schedkit/schedkit/plugins/nodeaffinity"
	"github.com/schedkit/schedkit/plugins/nodename"
	"github.com/schedkit/schedkit/plugins/nodeports"
	"github.com/schedkit/schedkit/plugins/noderesources"
	"github.com/schedkit/schedkit/plugins/nodeunschedulable"
	"github.com/schedkit/schedkit/plugins/tainttoleration"
)

// Every factory accepts nil args and names its plugin with the shared
// config constant.
func Example_filters() {
	for _, f := range []framework.PluginFactory{nodename.New, nodeunschedulable.New, tainttoleration.New, noderesources.NewFit, nodeaffinity.New, nodeports.New} {
		p, err := f(nil, nil)
		fmt.Println(p.Name(), err)
	}
	// Output:
	// NodeName <nil>
	// NodeUnschedulable <nil>
	// TaintToleration <nil>
	// NodeResourcesFit <nil>
	// NodeAffinity <nil>
	// NodePorts <nil>
}

// Every factory accepts nil args and names its plugin with the shared
// config constant.
func Example_scores() {
	for _, f := range []framework.PluginFactory{noderesources.NewFit, noderesources.NewBalancedAllocation, imagelocality.New, tainttoleration.New, nodeaffinity.New} {
		p, err := f(nil, nil)
		fmt.Println(p.Name(), err)
	}
	fmt.Println(config.ImageLocalityName)
	// Output:
	// NodeResourcesFit <nil>
	// NodeResourcesBalancedAllocation <nil>
	// ImageLocality <nil>
	// TaintToleration <nil>
	// NodeAffinity <nil>
	// ImageLocality
}

package interpodaffinity

// The InterPodAffinity tables' builders live in internal/testing/testwrap, shared
// with the scheduler's tests.

import "github.com/schedkit/schedkit/internal/testing/testwrap"

type (
	ipaPod         = testwrap.IPAPod
	fakeNamespaces = testwrap.FakeNamespaces
	ipaHandle      = testwrap.IPAHandle
)

var (
	mkPod       = testwrap.MkPod
	term        = testwrap.Term
	selIn       = testwrap.SelIn
	selNotIn    = testwrap.SelNotIn
	selExists   = testwrap.SelExists
	selReqs     = testwrap.SelReqs
	ipaNode     = testwrap.IPANode
	ipaSnapshot = testwrap.IPASnapshot
)

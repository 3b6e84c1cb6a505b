package priorities

import "github.com/schedkit/schedkit/framework"

var skipStatus = framework.NewStatus(framework.Skip)

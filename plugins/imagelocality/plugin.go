package imagelocality

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.ImageLocalityName

// ImageLocality is the ImageLocality plugin. It reads the number of
// nodes from the framework handle's snapshot.
type ImageLocality struct {
	handle framework.Handle
}

var (
	_ framework.PreScorePlugin = (*ImageLocality)(nil)
	_ framework.ScorePlugin    = (*ImageLocality)(nil)
)

// New is the ImageLocality factory. ImageLocality takes no
// arguments; args is ignored. h supplies the snapshot whose node count
// scales image scores.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	return &ImageLocality{handle: h}, nil
}

// Name returns Name.
func (pl *ImageLocality) Name() string { return Name }

var _ framework.FastPathPlugin = (*ImageLocality)(nil)

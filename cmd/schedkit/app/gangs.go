package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/scheduler"
)

// gangNote is explain's note on a gang member: the rows above judge the
// pod alone; the note says what its group's cycle would decide now.
func gangNote(s *scheduler.Scheduler, p *api.Pod, k podgroup.Key) string {
	head := fmt.Sprintf("member of PodGroup %s/%s (explain judges the pod alone; simulate places the gang as one unit)", k.Namespace, k.Name)
	ex, err := s.ExplainGroup(context.Background(), p)
	if err != nil {
		return head + ": " + err.Error()
	}
	var fit []string
	var fails string
	for _, m := range ex.Members {
		if m.Node != "" {
			fit = append(fit, podName(m.Pod)+" → "+m.Node)
		} else if fails == "" && m.Err != nil {
			fails = fmt.Sprintf("; the first member that fits nowhere: %s: %v", podName(m.Pod), m.Err)
		}
	}
	b := head + fmt.Sprintf(": the gang's cycle (minCount %d) tries %d pod(s)", ex.MinCount, len(ex.Members)+len(ex.Untried))
	if len(fit) > 0 {
		b += "; fit: " + strings.Join(fit, ", ")
	}
	b += fails
	if ex.Fits {
		return b + "; the gang fits"
	}
	return b + "; the gang does not fit: " + ex.Message
}

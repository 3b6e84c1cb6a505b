package api_test

import (
	"encoding/json"
	"fmt"

	"github.com/schedkit/schedkit/api"
)

// A manifest decodes straight into the object types; fields schedkit does
// not model are ignored.
func ExamplePod() {
	manifest := `{
	  "apiVersion": "v1", "kind": "Pod",
	  "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
	  "spec": {
	    "containers": [{"name": "app", "image": "nginx:1.27",
	      "resources": {"requests": {"cpu": "250m", "memory": "512Mi"}},
	      "livenessProbe": {"httpGet": {"path": "/", "port": 80}}}],
	    "tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}]
	  }
	}`
	var pod api.Pod
	if err := json.Unmarshal([]byte(manifest), &pod); err != nil {
		fmt.Println(err)
		return
	}
	cpu := pod.Spec.Containers[0].Resources.Requests[api.ResourceCPU]
	fmt.Println(pod.Namespace, pod.Name, cpu.MilliValue(), pod.Spec.Tolerations[0].Key)
	// Output: shop web 250 dedicated
}

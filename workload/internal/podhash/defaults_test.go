package podhash

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDropDisabled: the fields of features v1.37.2 disables by default
// go on create (upstream's DropDisabledTemplateFields; the conformance
// property holds every one to upstream).
func TestDropDisabled(t *testing.T) {
	v := decode(t, `{"spec":{"schedulingGroup":{"podGroupName":"g"},"evictionResponders":[{"name":"r"}],
		"containers":[{"name":"c","image":"a:1","readinessProbe":{"grpc":{"port":1,"mode":"TLS"}},"lifecycle":{"stopSignal":"SIGTERM"},
		"volumeMounts":[{"name":"v","mountPath":"/v","bindMountOptions":["x"]}]}],
		"volumes":[{"name":"v","emptyDir":{"mode":448}},{"name":"s","secret":{"defaultUser":1,"items":[{"key":"k","path":"p","user":2}]}}]}}`)
	Default(v)
	got, _ := json.Marshal(v)
	for _, gone := range []string{"schedulingGroup", "evictionResponders", `"mode"`, "stopSignal", "lifecycle", "bindMountOptions", "defaultUser", `"user"`} {
		if strings.Contains(string(got), gone) {
			t.Errorf("%s kept: %s", gone, got)
		}
	}
}

// TestImageTag ports upstream's TestParseImageName (pkg/util/parsers):
// the tag and digest the pull-policy default reads.
func TestImageTag(t *testing.T) {
	const d = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	for _, c := range []struct {
		in, tag, digest string
		ok              bool
	}{
		// upstream: TestParseImageName
		{"root", "", "", true}, // upstream reports the default tag latest
		{"root:tag", "tag", "", true},
		{"root@" + d, "", d, true},
		{"user/repo", "", "", true},
		{"user/repo:tag", "tag", "", true},
		{"user/repo@" + d, "", d, true},
		{"url:5000/repo", "", "", true},
		{"url:5000/repo:tag", "tag", "", true},
		{"url:5000/repo@" + d, "", d, true},
		{"url:5000/repo:latest@" + d, "latest", d, true},
		{"ROOT", "", "", false},
		{"http://root", "", "", false},
		{"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "", "", false},
		// distribution/reference: an unknown algorithm or a short digest
		// does not parse.
		{"root@md5:e3b0c44298fc1c149afbf4c8996fb924", "", "", false},
		{"root@sha256:e3b0c44298fc", "", "", false},
		{"", "", "", false},
	} {
		tag, digest, ok := imageTag(c.in)
		if tag != c.tag || digest != c.digest || ok != c.ok {
			t.Errorf("%q: got %q %q %v, want %q %q %v", c.in, tag, digest, ok, c.tag, c.digest, c.ok)
		}
	}
	for image, want := range map[string]string{"nginx": "Always", "nginx:latest": "Always", "nginx:1.27": "IfNotPresent", "nginx@" + d: "IfNotPresent", "NGINX": "IfNotPresent", "": "IfNotPresent"} {
		if got := pullPolicy(image); got != want {
			t.Errorf("pullPolicy(%q) = %s, want %s", image, got, want)
		}
	}
}

// TestDefault pins the defaults of upstream's core/v1 defaulting tests
// on a Deployment's template.
func TestDefault(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		// upstream: TestWorkloadDefaults (the pod spec and container
		// defaults of a template), TestSetDefaultSchedulerName,
		// TestSetDefaultPodTerminationGracePeriodSeconds
		{"pod spec", `{"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}`,
			`{"spec":{"containers":[{"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","name":"c","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}`},
		// upstream: TestSetDefaultServiceAccountAlias
		{"service account alias", `{"spec":{"serviceAccount":"sa"}}`,
			`{"spec":{"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"sa","serviceAccountName":"sa","terminationGracePeriodSeconds":30}}`},
		// upstream: TestSetDefaultProbe, TestSetDefaultProbeGRPCMode,
		// TestSetDefaultObjectFieldSelectorAPIVersion, ports' protocol
		{"probes, env, ports", `{"spec":{"restartPolicy":"Never","dnsPolicy":"Default","schedulerName":"s","securityContext":{"runAsUser":1},"terminationGracePeriodSeconds":5,
			"containers":[{"image":"a:latest","ports":[{"containerPort":80}],"env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
			"livenessProbe":{"httpGet":{"port":80}},"readinessProbe":{"grpc":{"port":9}},"lifecycle":{"preStop":{"httpGet":{"port":"web"}}}}]}}`,
			`{"spec":{"containers":[{"env":[{"name":"N","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],"image":"a:latest","imagePullPolicy":"Always",
			"lifecycle":{"preStop":{"httpGet":{"path":"/","port":"web","scheme":"HTTP"}}},
			"livenessProbe":{"failureThreshold":3,"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},
			"ports":[{"containerPort":80,"protocol":"TCP"}],
			"readinessProbe":{"failureThreshold":3,"grpc":{"port":9,"service":""},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1},
			"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			"dnsPolicy":"Default","restartPolicy":"Never","schedulerName":"s","securityContext":{"runAsUser":1},"terminationGracePeriodSeconds":5}}`},
		// upstream: TestSetDefaults_Volume, TestSetDefaultSecretVolumeSource,
		// TestSetDefaultConfigMapVolumeSource, TestSetDefaultDownwardAPIVolumeSource,
		// TestSetDefaultProjectedVolumeSource, TestSetDefaultHostPathVolumeSource,
		// TestSetDefaultEphemeral
		{"volumes", `{"spec":{"volumes":[{"name":"a"},{"name":"b","secret":{}},{"name":"c","configMap":{"defaultMode":256}},{"name":"d","downwardAPI":{}},
			{"name":"e","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}},{"name":"f","hostPath":{"path":"/x"}},
			{"name":"g","ephemeral":{"volumeClaimTemplate":{"spec":{"resources":{"requests":{"storage":"1.5n"}}}}}},{"name":"h","image":{"reference":"img"}}]}}`,
			`{"spec":{"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30,"volumes":[
			{"emptyDir":{},"name":"a"},{"name":"b","secret":{"defaultMode":420}},{"configMap":{"defaultMode":256},"name":"c"},{"downwardAPI":{"defaultMode":420},"name":"d"},
			{"name":"e","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3600,"path":"t"}}]}},{"hostPath":{"path":"/x","type":""},"name":"f"},
			{"ephemeral":{"volumeClaimTemplate":{"spec":{"resources":{"requests":{"storage":"1m"}},"volumeMode":"Filesystem"}}},"name":"g"},{"image":{"pullPolicy":"Always","reference":"img"},"name":"h"}]}}`},
		// SetDefaults_ResourceList: quantities rounded up to milli-units.
		{"resource lists", `{"spec":{"overhead":{"cpu":"0.1m"},"resources":{"limits":{"memory":"1.0001m"}},"containers":[{"image":"a:1","resources":{"requests":{"cpu":0.5,"memory":"1Gi"}}}]}}`,
			`{"spec":{"containers":[{"image":"a:1","imagePullPolicy":"IfNotPresent","resources":{"requests":{"cpu":"500m","memory":"1Gi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			"dnsPolicy":"ClusterFirst","overhead":{"cpu":"1m"},"resources":{"limits":{"memory":"2m"}},"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}`},
	} {
		v := decode(t, c.in)
		Default(v)
		got, _ := json.Marshal(v)
		var g, w any
		_ = json.Unmarshal(got, &g)
		if err := json.Unmarshal([]byte(c.want), &w); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

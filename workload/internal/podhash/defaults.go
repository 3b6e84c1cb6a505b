package podhash

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/schedkit/schedkit/quantity"
)

// Default applies, in place, the defaulting the API server gives the pod
// template of an apps/v1 Deployment it creates (SetObjectDefaults_Deployment
// on spec.template), so that a hand-written template hashes as the stored
// one: the pod spec's dnsPolicy ClusterFirst, restartPolicy Always, an
// empty securityContext, terminationGracePeriodSeconds 30, schedulerName
// default-scheduler and serviceAccountName / serviceAccount made equal;
// every container's (init and ephemeral ones too) imagePullPolicy (Always
// for a :latest or untagged image, else IfNotPresent),
// terminationMessagePath and Policy, port protocols, probe timings and
// HTTP paths and schemes, env field selectors' apiVersion; volumes'
// default sources (emptyDir) and modes; resource quantities rounded up to
// milli-units; then the fields of features disabled by default are
// dropped (see dropDisabled). tpl is the JSON value Hash takes; parts of
// the wrong JSON type are left for Hash to report.
func Default(tpl any) {
	m, _ := tpl.(map[string]any)
	if m == nil {
		return
	}
	spec := child(m, "spec")
	if spec == nil {
		spec = map[string]any{}
		m["spec"] = spec
	}
	defaultPodSpec(spec)
	dropDisabled(spec)
}

// dropDisabled removes, as the API server's pod template strategy does on
// create (DropDisabledTemplateFields), the fields of features Kubernetes
// v1.37.2 disables by default: spec.schedulingGroup (GenericWorkload),
// spec.evictionResponders (EvictionRequestAPI), gRPC probes' mode
// (GRPCContainerProbeTLS), HTTP probes' and lifecycle handlers' protocol
// (H2CContainerProbe), lifecycle.stopSignal (ContainerStopSignals,
// with a lifecycle left empty), emptyDir.mode (EmptyDirVolumeMode),
// volumeMounts' bindMountOptions (VolumeBindMountOptions) and the user
// fields of secret, configMap, downwardAPI and projected volumes
// (AtomicWriteVolumeUserFields).
func dropDisabled(spec map[string]any) {
	delete(spec, "schedulingGroup")
	delete(spec, "evictionResponders")
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		items(spec, key, func(c map[string]any) {
			for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
				if p := child(c, k); p != nil {
					if g := child(p, "grpc"); g != nil {
						delete(g, "mode")
					}
					if h := child(p, "httpGet"); h != nil {
						delete(h, "protocol")
					}
				}
			}
			if l := child(c, "lifecycle"); l != nil {
				for _, k := range []string{"postStart", "preStop"} {
					if h := child(l, k); h != nil {
						if g := child(h, "httpGet"); g != nil {
							delete(g, "protocol")
						}
					}
				}
			}
			if l := child(c, "lifecycle"); l != nil && l["stopSignal"] != nil {
				delete(l, "stopSignal")
				if l["postStart"] == nil && l["preStop"] == nil {
					delete(c, "lifecycle")
				}
			}
			items(c, "volumeMounts", func(m map[string]any) { delete(m, "bindMountOptions") })
		})
	}
	items(spec, "volumes", func(v map[string]any) {
		if e := child(v, "emptyDir"); e != nil {
			delete(e, "mode")
		}
		dropUser := func(items []any) {
			for _, it := range items {
				if o, ok := it.(map[string]any); ok {
					delete(o, "user")
				}
			}
		}
		list := func(m map[string]any) []any { l, _ := m["items"].([]any); return l }
		// The first source set, in the strategy's order.
		switch {
		case child(v, "secret") != nil:
			delete(child(v, "secret"), "defaultUser")
			dropUser(list(child(v, "secret")))
		case child(v, "configMap") != nil:
			delete(child(v, "configMap"), "defaultUser")
			dropUser(list(child(v, "configMap")))
		case child(v, "downwardAPI") != nil:
			delete(child(v, "downwardAPI"), "defaultUser")
			dropUser(list(child(v, "downwardAPI")))
		case child(v, "projected") != nil:
			pr := child(v, "projected")
			delete(pr, "defaultUser")
			items(pr, "sources", func(src map[string]any) {
				switch {
				case child(src, "secret") != nil:
					dropUser(list(child(src, "secret")))
				case child(src, "downwardAPI") != nil:
					dropUser(list(child(src, "downwardAPI")))
				case child(src, "configMap") != nil:
					dropUser(list(child(src, "configMap")))
				case child(src, "serviceAccountToken") != nil:
					delete(child(src, "serviceAccountToken"), "user")
				case child(src, "clusterTrustBundle") != nil:
					delete(child(src, "clusterTrustBundle"), "user")
				case child(src, "podCertificate") != nil:
					delete(child(src, "podCertificate"), "user")
				}
			})
		}
	})
}

// child returns the object m[key], or nil when absent, null or not an
// object.
func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

// unset reports whether m[key] is absent, null or its Go zero value (an
// empty string, 0, false).
func unset(m map[string]any, key string) bool {
	switch v := m[key].(type) {
	case nil:
		return true
	case string:
		return v == ""
	case json.Number:
		f, err := v.Float64()
		return err == nil && f == 0
	case bool:
		return !v
	}
	return false
}

// setIfUnset sets m[key] when unset (see unset).
func setIfUnset(m map[string]any, key string, v any) {
	if unset(m, key) {
		m[key] = v
	}
}

// setIfNil sets m[key] when absent or null (a nil pointer).
func setIfNil(m map[string]any, key string, v any) {
	if m[key] == nil {
		m[key] = v
	}
}

// items calls f on each object of the list m[key].
func items(m map[string]any, key string, f func(map[string]any)) {
	l, _ := m[key].([]any)
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			f(o)
		}
	}
}

func defaultPodSpec(spec map[string]any) {
	if unset(spec, "serviceAccountName") {
		if s, ok := spec["serviceAccount"]; ok {
			spec["serviceAccountName"] = s
		}
	}
	if s, ok := spec["serviceAccountName"]; ok {
		spec["serviceAccount"] = s
	} else {
		delete(spec, "serviceAccount")
	}
	setIfUnset(spec, "dnsPolicy", "ClusterFirst")
	setIfUnset(spec, "restartPolicy", "Always")
	setIfNil(spec, "securityContext", map[string]any{})
	setIfNil(spec, "terminationGracePeriodSeconds", json.Number("30"))
	setIfUnset(spec, "schedulerName", "default-scheduler")
	items(spec, "volumes", defaultVolume)
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		items(spec, key, defaultContainer)
	}
	roundUpList(spec, "overhead")
	if r := child(spec, "resources"); r != nil {
		roundUpList(r, "limits")
		roundUpList(r, "requests")
	}
}

// volumeSources are the JSON names of v1.VolumeSource's fields (every
// one a pointer), from the schema.
var volumeSources = func() []string {
	for i := range Types {
		if Types[i].Name == "v1.VolumeSource" {
			var out []string
			for _, f := range Types[i].Fields {
				out = append(out, f.JSON)
			}
			return out
		}
	}
	panic("podhash: v1.VolumeSource not in the schema")
}()

func defaultVolume(v map[string]any) {
	none := true
	for _, k := range volumeSources {
		if v[k] != nil {
			none = false
			break
		}
	}
	if none {
		v["emptyDir"] = map[string]any{}
	}
	if img := child(v, "image"); img != nil && unset(img, "pullPolicy") {
		img["pullPolicy"] = pullPolicy(img["reference"])
	}
	if hp := child(v, "hostPath"); hp != nil {
		setIfNil(hp, "type", "")
	}
	for _, k := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if s := child(v, k); s != nil {
			setIfNil(s, "defaultMode", json.Number("420"))
		}
	}
	if s := child(v, "iscsi"); s != nil {
		setIfUnset(s, "iscsiInterface", "default")
	}
	if s := child(v, "rbd"); s != nil {
		setIfUnset(s, "pool", "rbd")
		setIfUnset(s, "user", "admin")
		setIfUnset(s, "keyring", "/etc/ceph/keyring")
	}
	if s := child(v, "downwardAPI"); s != nil {
		items(s, "items", defaultFieldRefOf)
	}
	if s := child(v, "azureDisk"); s != nil {
		setIfNil(s, "cachingMode", "ReadWrite")
		setIfNil(s, "fsType", "ext4")
		setIfNil(s, "readOnly", false)
		setIfNil(s, "kind", "Shared")
	}
	if s := child(v, "projected"); s != nil {
		items(s, "sources", func(src map[string]any) {
			if d := child(src, "downwardAPI"); d != nil {
				items(d, "items", defaultFieldRefOf)
			}
			if t := child(src, "serviceAccountToken"); t != nil {
				setIfNil(t, "expirationSeconds", json.Number("3600"))
			}
		})
	}
	if s := child(v, "scaleIO"); s != nil {
		setIfUnset(s, "storageMode", "ThinProvisioned")
		setIfUnset(s, "fsType", "xfs")
	}
	if e := child(v, "ephemeral"); e != nil {
		if t := child(e, "volumeClaimTemplate"); t != nil {
			spec := child(t, "spec")
			if spec == nil {
				spec = map[string]any{}
				t["spec"] = spec
			}
			setIfNil(spec, "volumeMode", "Filesystem")
			if r := child(spec, "resources"); r != nil {
				roundUpList(r, "limits")
				roundUpList(r, "requests")
			}
		}
	}
}

// defaultFieldRefOf defaults the fieldRef of a downward API item or env
// source.
func defaultFieldRefOf(o map[string]any) {
	if f := child(o, "fieldRef"); f != nil {
		setIfUnset(f, "apiVersion", "v1")
	}
}

func defaultContainer(c map[string]any) {
	if unset(c, "imagePullPolicy") {
		c["imagePullPolicy"] = pullPolicy(c["image"])
	}
	setIfUnset(c, "terminationMessagePath", "/dev/termination-log")
	setIfUnset(c, "terminationMessagePolicy", "File")
	items(c, "ports", func(p map[string]any) { setIfUnset(p, "protocol", "TCP") })
	items(c, "env", func(e map[string]any) {
		vf := child(e, "valueFrom")
		if vf == nil {
			return
		}
		defaultFieldRefOf(vf)
		if f := child(vf, "fileKeyRef"); f != nil {
			setIfNil(f, "optional", false)
		}
	})
	if r := child(c, "resources"); r != nil {
		roundUpList(r, "limits")
		roundUpList(r, "requests")
	}
	for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		p := child(c, k)
		if p == nil {
			continue
		}
		setIfUnset(p, "timeoutSeconds", json.Number("1"))
		setIfUnset(p, "periodSeconds", json.Number("10"))
		setIfUnset(p, "successThreshold", json.Number("1"))
		setIfUnset(p, "failureThreshold", json.Number("3"))
		defaultHTTPGet(p)
		if g := child(p, "grpc"); g != nil {
			setIfNil(g, "service", "")
		}
	}
	if l := child(c, "lifecycle"); l != nil {
		for _, k := range []string{"postStart", "preStop"} {
			if h := child(l, k); h != nil {
				defaultHTTPGet(h)
			}
		}
	}
}

func defaultHTTPGet(handler map[string]any) {
	if h := child(handler, "httpGet"); h != nil {
		setIfUnset(h, "path", "/")
		setIfUnset(h, "scheme", "HTTP")
	}
}

// roundUpList rounds the quantities of the resource list m[key] up to
// milli-units, as SetDefaults_ResourceList does, writing them as stored.
func roundUpList(m map[string]any, key string) {
	l := child(m, key)
	for name, v := range l {
		var s string
		switch q := v.(type) {
		case string:
			s = q
		case json.Number:
			s = string(q)
		default:
			continue
		}
		q, err := quantity.ParseQuantity(strings.TrimSpace(s))
		if err != nil {
			continue
		}
		q.RoundUp(quantity.Milli)
		l[name] = q.String()
	}
}

// The grammar of container image references (distribution/reference,
// which the API server's ParseImageName uses): a name of lowercase path
// components, an optional domain, tag and digest.
var (
	imageReference = func() *regexp.Regexp {
		alnum := `[a-z0-9]+`
		sep := `(?:[._]|__|[-]+)`
		comp := `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host := `(?:` + comp + `(?:\.` + comp + `)*|\[(?:[a-fA-F0-9:]+)\])`
		domain := host + `(?::[0-9]+)?`
		path := alnum + `(?:` + sep + alnum + `)*`
		name := `(?:` + domain + `/)?` + path + `(?:/` + path + `)*`
		tag := `[\w][\w.-]{0,127}`
		digest := `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
		return regexp.MustCompile(`^(` + name + `)(?::(` + tag + `))?(?:@(` + digest + `))?$`)
	}()
	imageNamePath = func() *regexp.Regexp {
		alnum := `[a-z0-9]+`
		sep := `(?:[._]|__|[-]+)`
		comp := `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host := `(?:` + comp + `(?:\.` + comp + `)*|\[(?:[a-fA-F0-9:]+)\])`
		path := alnum + `(?:` + sep + alnum + `)*`
		return regexp.MustCompile(`^(?:(` + host + `(?::[0-9]+)?)/)?(` + path + `(?:/` + path + `)*)$`)
	}()
	imageIdentifier = regexp.MustCompile(`^[a-f0-9]{64}$`)
	digestLengths   = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
	lowerHex        = regexp.MustCompile(`^[a-f0-9]+$`)
)

// pullPolicy is SetDefaults_Container's image pull policy for image (a
// JSON value): Always when the reference parses and has the tag latest,
// or neither tag nor digest; IfNotPresent otherwise (a reference that
// does not parse included).
func pullPolicy(image any) string {
	s, _ := image.(string)
	tag, digest, ok := imageTag(s)
	if ok && (tag == "latest" || tag == "" && digest == "") {
		return "Always"
	}
	return "IfNotPresent"
}

// imageTag follows distribution/reference's ParseNormalizedNamed: the
// tag and digest of a reference, ok false when it does not parse.
func imageTag(s string) (tag, digest string, ok bool) {
	if imageIdentifier.MatchString(s) {
		return "", "", false
	}
	domain, remainder := "docker.io", ""
	first, rest, hasSlash := strings.Cut(s, "/")
	switch {
	case !hasSlash:
		remainder = "library/" + s
	case first == "localhost":
		domain, remainder = first, rest
	case first == "index.docker.io":
		remainder = rest
	case strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		domain, remainder = first, rest
	default:
		remainder = s
	}
	if hasSlash && domain == "docker.io" && !strings.Contains(remainder, "/") {
		remainder = "library/" + remainder
	}
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", "", false
	}
	m := imageReference.FindStringSubmatch(domain + "/" + remainder)
	if m == nil {
		return "", "", false
	}
	path := m[1]
	if n := imageNamePath.FindStringSubmatch(m[1]); n != nil {
		path = n[2]
	}
	if len(path) > 255 {
		return "", "", false
	}
	if d := m[3]; d != "" {
		alg, enc, _ := strings.Cut(d, ":")
		if n, known := digestLengths[alg]; !known || len(enc) != n || !lowerHex.MatchString(enc) {
			return "", "", false
		}
	}
	return m[2], m[3], true
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/api"
)

// objects is everything read from the manifests.
type objects struct {
	Nodes           []*api.Node
	Pods            []*api.Pod
	LimitRanges     []api.LimitRange
	PriorityClasses []api.PriorityClass
	Namespaces      []*api.Namespace
	PDBs            []*api.PodDisruptionBudget
	ResourceQuotas  []api.ResourceQuota
	Services        []*api.Service
	Claims          []*api.PersistentVolumeClaim
	Skipped         map[string]int // kinds not modelled, by count
}

// readManifests reads YAML or JSON documents (several per file, separated
// by "---" lines; kind: List documents are unpacked) from each path; "-"
// reads standard input.
func readManifests(paths []string, stdin io.Reader) (*objects, error) {
	objs := &objects{Skipped: map[string]int{}}
	for _, p := range paths {
		var data []byte
		var err error
		if p == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(p)
		}
		if err != nil {
			return nil, err
		}
		docs, err := splitDocuments(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for i, doc := range docs {
			if err := objs.add(doc); err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", p, i+1, err)
			}
		}
	}
	return objs, nil
}

// splitDocuments cuts a YAML stream at "---" lines and converts each
// non-empty document to JSON.
func splitDocuments(data []byte) ([][]byte, error) {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() error {
		if len(bytes.TrimSpace(cur.Bytes())) == 0 {
			cur.Reset()
			return nil
		}
		j, err := yaml.YAMLToJSON(cur.Bytes())
		if err != nil {
			return err
		}
		cur.Reset()
		if string(j) != "null" {
			docs = append(docs, j)
		}
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "---") && strings.TrimSpace(strings.TrimLeft(line, "-")) == "" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return docs, nil
}

func (o *objects) add(doc []byte) error {
	var head struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return err
	}
	decode := func(v any) error {
		if err := json.Unmarshal(doc, v); err != nil {
			return fmt.Errorf("kind %s: %w", head.Kind, err)
		}
		return nil
	}
	switch head.Kind {
	case "List", "NodeList", "PodList":
		for i, it := range head.Items {
			if err := o.add(it); err != nil {
				return fmt.Errorf("items[%d]: %w", i, err)
			}
		}
	case "Node":
		n := &api.Node{}
		if err := decode(n); err != nil {
			return err
		}
		o.Nodes = append(o.Nodes, n)
	case "Pod":
		p := &api.Pod{}
		if err := decode(p); err != nil {
			return err
		}
		o.Pods = append(o.Pods, p)
	case "LimitRange":
		var lr api.LimitRange
		if err := decode(&lr); err != nil {
			return err
		}
		o.LimitRanges = append(o.LimitRanges, lr)
	case "PriorityClass":
		var pc api.PriorityClass
		if err := decode(&pc); err != nil {
			return err
		}
		o.PriorityClasses = append(o.PriorityClasses, pc)
	case "Namespace":
		ns := &api.Namespace{}
		if err := decode(ns); err != nil {
			return err
		}
		o.Namespaces = append(o.Namespaces, ns)
	case "PodDisruptionBudget":
		pdb := &api.PodDisruptionBudget{}
		if err := decode(pdb); err != nil {
			return err
		}
		o.PDBs = append(o.PDBs, pdb)
	case "ResourceQuota":
		var q api.ResourceQuota
		if err := decode(&q); err != nil {
			return err
		}
		o.ResourceQuotas = append(o.ResourceQuotas, q)
	case "Service":
		svc := &api.Service{}
		if err := decode(svc); err != nil {
			return err
		}
		o.Services = append(o.Services, svc)
	case "PersistentVolumeClaim":
		pvc := &api.PersistentVolumeClaim{}
		if err := decode(pvc); err != nil {
			return err
		}
		o.Claims = append(o.Claims, pvc)
	case "":
		return fmt.Errorf("document has no kind")
	default:
		o.Skipped[head.Kind]++
	}
	return nil
}

package workload

// workloads is a cluster with a workload of each kind: TestExpandWorkloads
// loads it and FuzzExpand starts from it.
const workloads = `
apiVersion: v1
kind: Node
metadata: {name: a}
---
apiVersion: v1
kind: Node
metadata: {name: b}
spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
---
apiVersion: v1
kind: Node
metadata: {name: c, labels: {disk: ssd}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: web}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: api-5d8f, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c, image: img}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: api-5d8f-abcde
  namespace: shop
  labels: {app: api}
  uid: u1
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: api-5d8f, uid: r1, controller: true}]
spec: {nodeName: a, containers: [{name: c, image: img}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  podManagementPolicy: Parallel
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: img}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 2
  completions: 4
  completionMode: Indexed
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: img}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: DoesNotExist}]}, {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}]
      containers: [{name: c, image: img}]
`

package api

import "github.com/schedkit/schedkit/quantity"

// Pod is a Kubernetes pod (core/v1).
type Pod struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name, namespace, uid, labels and so on.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired pod.
	Spec PodSpec `json:"spec,omitempty"`
	// Status is the observed pod.
	Status PodStatus `json:"status,omitempty"`
}

// PodSpec is the desired state of a pod.
type PodSpec struct {
	// Volumes the pod's containers may mount.
	Volumes []Volume `json:"volumes,omitempty"`
	// InitContainers run to completion, in order, before Containers start;
	// those with restartPolicy Always are sidecars that keep running.
	InitContainers []Container `json:"initContainers,omitempty"`
	// Containers are the pod's application containers.
	Containers []Container `json:"containers"`
	// RestartPolicy is Always, OnFailure or Never.
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
	// TerminationGracePeriodSeconds is how long the pod may take to stop.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// ActiveDeadlineSeconds bounds how long the pod may run; a pod with
	// it set is Terminating to ResourceQuota scopes.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// NodeSelector is a map of labels the node must carry.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// ServiceAccountName is the pod's service account.
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// NodeName binds the pod to a node; the scheduler places pods
	// without it.
	NodeName string `json:"nodeName,omitempty"`
	// HostNetwork puts the pod in the node's network namespace.
	HostNetwork bool `json:"hostNetwork,omitempty"`
	// Hostname is the pod's host name (the StatefulSet and Indexed Job
	// controllers set it); empty means the pod's name.
	Hostname string `json:"hostname,omitempty"`
	// Subdomain makes the pod's FQDN <hostname>.<subdomain>.<namespace>
	// (a StatefulSet's serviceName).
	Subdomain string `json:"subdomain,omitempty"`
	// Affinity holds node affinity and pod (anti-)affinity.
	Affinity *Affinity `json:"affinity,omitempty"`
	// SchedulerName picks the scheduler profile; empty means
	// "default-scheduler".
	SchedulerName string `json:"schedulerName,omitempty"`
	// Tolerations let the pod run on tainted nodes.
	Tolerations []Toleration `json:"tolerations,omitempty"`
	// PriorityClassName names the pod's PriorityClass.
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority is the resolved priority; nil means 0.
	Priority *int32 `json:"priority,omitempty"`
	// PreemptionPolicy is PreemptLowerPriority (the default) or Never.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	// Overhead is the resource cost of the pod's runtime class, added to
	// its requests and limits.
	Overhead ResourceList `json:"overhead,omitempty"`
	// TopologySpreadConstraints spread matching pods across domains.
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// SchedulingGates hold the pod back from scheduling while present.
	SchedulingGates []PodSchedulingGate `json:"schedulingGates,omitempty"`
	// Resources are pod-level requests and limits (PodLevelResources).
	Resources *ResourceRequirements `json:"resources,omitempty"`
	// EphemeralContainers are debugging containers added to a running
	// pod; the NodeDeclaredFeatures plugin reads their volume mounts.
	EphemeralContainers []EphemeralContainer `json:"ephemeralContainers,omitempty"`
	// HostUsers false runs the pod in a user namespace; nil means true.
	HostUsers *bool `json:"hostUsers,omitempty"`
	// ResourceClaims are the DRA claims the pod's containers may use,
	// each named directly or made from a template.
	ResourceClaims []PodResourceClaim `json:"resourceClaims,omitempty"`
	// SchedulingGroup joins the pod to a PodGroup (GenericWorkload); the
	// scheduler schedules the group's pods together.
	SchedulingGroup *PodSchedulingGroup `json:"schedulingGroup,omitempty"`
}

// PodSchedulingGroup names the runtime scheduling group a pod belongs to
// (core/v1 PodSchedulingGroup).
type PodSchedulingGroup struct {
	// PodGroupName is the PodGroup in the pod's namespace.
	PodGroupName *string `json:"podGroupName,omitempty"`
}

// RestartPolicy is a pod's restart policy.
type RestartPolicy string

// Pod restart policies.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// ContainerRestartPolicy is a container-level restart policy; on an init
// container, Always makes it a restartable sidecar.
type ContainerRestartPolicy string

// ContainerRestartPolicyAlways marks a restartable (sidecar) init container.
const ContainerRestartPolicyAlways ContainerRestartPolicy = "Always"

// PreemptionPolicy says whether a pod may preempt lower-priority pods.
type PreemptionPolicy string

// Preemption policies.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// PodSchedulingGate is one scheduling gate.
type PodSchedulingGate struct {
	// Name of the gate.
	Name string `json:"name"`
}

// Container is one container of a pod.
type Container struct {
	// Name is unique within the pod.
	Name string `json:"name"`
	// Image is the container image reference.
	Image string `json:"image,omitempty"`
	// Ports the container exposes, possibly on the host.
	Ports []ContainerPort `json:"ports,omitempty"`
	// Resources are the container's requests and limits.
	Resources ResourceRequirements `json:"resources,omitempty"`
	// RestartPolicy, on an init container, set to Always makes it a
	// sidecar.
	RestartPolicy *ContainerRestartPolicy `json:"restartPolicy,omitempty"`
	// RestartPolicyRules decide, in order, what an exit of the container
	// does (ContainerRestartRules).
	RestartPolicyRules []ContainerRestartRule `json:"restartPolicyRules,omitempty"`
	// VolumeMounts are the pod volumes mounted into the container.
	VolumeMounts []VolumeMount `json:"volumeMounts,omitempty"`
}

// EphemeralContainer is a debugging container of a pod: a Container and
// the container whose namespaces it targets.
type EphemeralContainer struct {
	Container `json:",inline"`
	// TargetContainerName is the container whose namespaces it shares.
	TargetContainerName string `json:"targetContainerName,omitempty"`
}

// ContainerRestartRuleAction is what a matching restart rule does.
type ContainerRestartRuleAction string

// Restart rule actions.
const (
	// ContainerRestartRuleActionRestart restarts the container.
	ContainerRestartRuleActionRestart ContainerRestartRuleAction = "Restart"
	// ContainerRestartRuleActionRestartAllContainers restarts every
	// container of the pod.
	ContainerRestartRuleActionRestartAllContainers ContainerRestartRuleAction = "RestartAllContainers"
)

// ContainerRestartRule is one rule of a container's restartPolicyRules.
type ContainerRestartRule struct {
	// Action taken when the rule matches.
	Action ContainerRestartRuleAction `json:"action,omitempty"`
	// ExitCodes the rule matches.
	ExitCodes *ContainerRestartRuleOnExitCodes `json:"exitCodes,omitempty"`
}

// ContainerRestartRuleOnExitCodes matches container exit codes.
type ContainerRestartRuleOnExitCodes struct {
	// Operator is In or NotIn.
	Operator string `json:"operator,omitempty"`
	// Values are the exit codes.
	Values []int32 `json:"values,omitempty"`
}

// VolumeMount mounts a pod volume into a container.
type VolumeMount struct {
	// Name of the pod volume.
	Name string `json:"name"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// RecursiveReadOnly is Disabled, IfPossible or Enabled.
	RecursiveReadOnly *string `json:"recursiveReadOnly,omitempty"`
	// MountPath inside the container.
	MountPath string `json:"mountPath"`
	// SubPath within the volume.
	SubPath string `json:"subPath,omitempty"`
	// MountPropagation is None, HostToContainer or Bidirectional.
	MountPropagation *string `json:"mountPropagation,omitempty"`
	// SubPathExpr is SubPath with environment variables expanded.
	SubPathExpr string `json:"subPathExpr,omitempty"`
	// BindMountOptions are bind mount options (VolumeBindMountOptions).
	BindMountOptions []string `json:"bindMountOptions,omitempty"`
}

// IsRestartableInit reports whether c, taken as an init container, is a
// sidecar (restartPolicy: Always).
func (c *Container) IsRestartableInit() bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == ContainerRestartPolicyAlways
}

// Protocol is TCP, UDP or SCTP.
type Protocol string

// Protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	// Name of the port.
	Name string `json:"name,omitempty"`
	// HostPort, if non-zero, is reserved on the node.
	HostPort int32 `json:"hostPort,omitempty"`
	// ContainerPort is the port inside the container.
	ContainerPort int32 `json:"containerPort"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty"`
	// HostIP is the host address to bind; empty means 0.0.0.0.
	HostIP string `json:"hostIP,omitempty"`
}

// Volume is a named volume of a pod. Upstream embeds a VolumeSource; schedkit
// keeps the sources as direct fields (the JSON is the same, inline) and
// models the sources that scheduling, the storage plugins and quota read:
// at most one should be set.
type Volume struct {
	// Name of the volume.
	Name string `json:"name"`
	// HostPath mounts a node path.
	HostPath *HostPathVolumeSource `json:"hostPath,omitempty"`
	// EmptyDir is scratch space on the node.
	EmptyDir *EmptyDirVolumeSource `json:"emptyDir,omitempty"`
	// GCEPersistentDisk is a GCE persistent disk.
	GCEPersistentDisk *GCEPersistentDiskVolumeSource `json:"gcePersistentDisk,omitempty"`
	// AWSElasticBlockStore is an AWS EBS volume.
	AWSElasticBlockStore *AWSElasticBlockStoreVolumeSource `json:"awsElasticBlockStore,omitempty"`
	// Secret projects a Secret.
	Secret *SecretVolumeSource `json:"secret,omitempty"`
	// NFS is an NFS share.
	NFS *NFSVolumeSource `json:"nfs,omitempty"`
	// ISCSI is an iSCSI disk.
	ISCSI *ISCSIVolumeSource `json:"iscsi,omitempty"`
	// PersistentVolumeClaim references a claim.
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	// RBD is a Ceph RBD image.
	RBD *RBDVolumeSource `json:"rbd,omitempty"`
	// Cinder is an OpenStack Cinder volume.
	Cinder *CinderVolumeSource `json:"cinder,omitempty"`
	// DownwardAPI projects pod fields into files.
	DownwardAPI *DownwardAPIVolumeSource `json:"downwardAPI,omitempty"`
	// AzureFile is an Azure File share.
	AzureFile *AzureFileVolumeSource `json:"azureFile,omitempty"`
	// ConfigMap projects a ConfigMap.
	ConfigMap *ConfigMapVolumeSource `json:"configMap,omitempty"`
	// AzureDisk is an Azure data disk.
	AzureDisk *AzureDiskVolumeSource `json:"azureDisk,omitempty"`
	// PortworxVolume is a Portworx volume.
	PortworxVolume *PortworxVolumeSource `json:"portworxVolume,omitempty"`
	// Projected combines secrets, config maps, downward API and tokens.
	Projected *ProjectedVolumeSource `json:"projected,omitempty"`
	// CSI is an inline (ephemeral) CSI volume.
	CSI *CSIVolumeSource `json:"csi,omitempty"`
	// Ephemeral is a generic ephemeral volume: a claim made from the
	// template for the pod, named <pod name>-<volume name>.
	Ephemeral *EphemeralVolumeSource `json:"ephemeral,omitempty"`
}

// HostPathType checks what a host path is before it is mounted.
type HostPathType string

// Host path types.
const (
	HostPathUnset             HostPathType = ""
	HostPathDirectoryOrCreate HostPathType = "DirectoryOrCreate"
	HostPathDirectory         HostPathType = "Directory"
	HostPathFileOrCreate      HostPathType = "FileOrCreate"
	HostPathFile              HostPathType = "File"
	HostPathSocket            HostPathType = "Socket"
	HostPathCharDev           HostPathType = "CharDevice"
	HostPathBlockDev          HostPathType = "BlockDevice"
)

// HostPathVolumeSource is a path on the node (pods and PVs).
type HostPathVolumeSource struct {
	// Path on the node.
	Path string `json:"path"`
	// Type checks the path; unset does no check.
	Type *HostPathType `json:"type,omitempty"`
}

// EmptyDirVolumeSource is node-local scratch space.
type EmptyDirVolumeSource struct {
	// Medium is "" (disk) or "Memory".
	Medium string `json:"medium,omitempty"`
	// SizeLimit caps the volume.
	SizeLimit *quantity.Quantity `json:"sizeLimit,omitempty"`
	// Mode is the permission bits of the volume's directory.
	Mode *int32 `json:"mode,omitempty"`
}

// PersistentVolumeClaimVolumeSource references a claim by name.
type PersistentVolumeClaimVolumeSource struct {
	// ClaimName in the pod's namespace.
	ClaimName string `json:"claimName"`
	// ReadOnly mounts the volume read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	// Name of the object.
	Name string `json:"name,omitempty"`
}

// KeyToPath maps a key of a Secret or ConfigMap to a file path.
type KeyToPath struct {
	// Key to project.
	Key string `json:"key"`
	// Path of the file, relative to the mount point.
	Path string `json:"path"`
	// Mode is the file's permission bits.
	Mode *int32 `json:"mode,omitempty"`
	// User owns the file.
	User *int64 `json:"user,omitempty"`
}

// SecretVolumeSource projects a Secret.
type SecretVolumeSource struct {
	// SecretName of the Secret.
	SecretName string `json:"secretName,omitempty"`
	// Items select keys; empty projects every key.
	Items []KeyToPath `json:"items,omitempty"`
	// DefaultMode of the files.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	// Optional allows the Secret to be missing.
	Optional *bool `json:"optional,omitempty"`
	// DefaultUser owns the files.
	DefaultUser *int64 `json:"defaultUser,omitempty"`
}

// ConfigMapVolumeSource projects a ConfigMap.
type ConfigMapVolumeSource struct {
	// LocalObjectReference names the ConfigMap.
	LocalObjectReference `json:",inline"`
	// Items select keys; empty projects every key.
	Items []KeyToPath `json:"items,omitempty"`
	// DefaultMode of the files.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	// Optional allows the ConfigMap to be missing.
	Optional *bool `json:"optional,omitempty"`
	// DefaultUser owns the files.
	DefaultUser *int64 `json:"defaultUser,omitempty"`
}

// ObjectFieldSelector selects a field of the pod.
type ObjectFieldSelector struct {
	// APIVersion the path is written in; default "v1".
	APIVersion string `json:"apiVersion,omitempty"`
	// FieldPath such as metadata.labels.
	FieldPath string `json:"fieldPath"`
}

// ResourceFieldSelector selects a container's resource request or limit.
type ResourceFieldSelector struct {
	// ContainerName, required for volumes.
	ContainerName string `json:"containerName,omitempty"`
	// Resource such as limits.cpu.
	Resource string `json:"resource"`
	// Divisor scales the value; default 1.
	Divisor quantity.Quantity `json:"divisor,omitzero"`
}

// DownwardAPIVolumeFile is one file of a downward API volume.
type DownwardAPIVolumeFile struct {
	// Path of the file.
	Path string `json:"path"`
	// FieldRef selects a pod field.
	FieldRef *ObjectFieldSelector `json:"fieldRef,omitempty"`
	// ResourceFieldRef selects a container resource.
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	// Mode is the file's permission bits.
	Mode *int32 `json:"mode,omitempty"`
	// User owns the file.
	User *int64 `json:"user,omitempty"`
}

// DownwardAPIVolumeSource projects pod fields into files.
type DownwardAPIVolumeSource struct {
	// Items are the files.
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
	// DefaultMode of the files.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	// DefaultUser owns the files.
	DefaultUser *int64 `json:"defaultUser,omitempty"`
}

// ProjectedVolumeSource combines several sources in one directory.
type ProjectedVolumeSource struct {
	// Sources projected.
	Sources []VolumeProjection `json:"sources"`
	// DefaultMode of the files.
	DefaultMode *int32 `json:"defaultMode,omitempty"`
	// DefaultUser owns the files.
	DefaultUser *int64 `json:"defaultUser,omitempty"`
}

// VolumeProjection is one source of a projected volume; exactly one
// field is set.
type VolumeProjection struct {
	// Secret to project.
	Secret *SecretProjection `json:"secret,omitempty"`
	// DownwardAPI files to project.
	DownwardAPI *DownwardAPIProjection `json:"downwardAPI,omitempty"`
	// ConfigMap to project.
	ConfigMap *ConfigMapProjection `json:"configMap,omitempty"`
	// ServiceAccountToken to project.
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
	// ClusterTrustBundle to project.
	ClusterTrustBundle *ClusterTrustBundleProjection `json:"clusterTrustBundle,omitempty"`
	// PodCertificate to project.
	PodCertificate *PodCertificateProjection `json:"podCertificate,omitempty"`
}

// SecretProjection projects a Secret into a projected volume.
type SecretProjection struct {
	// LocalObjectReference names the Secret.
	LocalObjectReference `json:",inline"`
	// Items select keys.
	Items []KeyToPath `json:"items,omitempty"`
	// Optional allows the Secret to be missing.
	Optional *bool `json:"optional,omitempty"`
}

// ConfigMapProjection projects a ConfigMap into a projected volume.
type ConfigMapProjection struct {
	// LocalObjectReference names the ConfigMap.
	LocalObjectReference `json:",inline"`
	// Items select keys.
	Items []KeyToPath `json:"items,omitempty"`
	// Optional allows the ConfigMap to be missing.
	Optional *bool `json:"optional,omitempty"`
}

// DownwardAPIProjection projects pod fields into a projected volume.
type DownwardAPIProjection struct {
	// Items are the files.
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// ServiceAccountTokenProjection projects a service account token.
type ServiceAccountTokenProjection struct {
	// Audience of the token.
	Audience string `json:"audience,omitempty"`
	// ExpirationSeconds is the requested lifetime.
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	// Path of the file.
	Path string `json:"path"`
	// User owns the file.
	User *int64 `json:"user,omitempty"`
}

// ClusterTrustBundleProjection projects ClusterTrustBundles.
type ClusterTrustBundleProjection struct {
	// Name of one bundle.
	Name *string `json:"name,omitempty"`
	// SignerName selects bundles by signer.
	SignerName *string `json:"signerName,omitempty"`
	// LabelSelector selects bundles by labels.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// Optional allows no bundle to match.
	Optional *bool `json:"optional,omitempty"`
	// Path of the file.
	Path string `json:"path"`
	// User owns the file.
	User *int64 `json:"user,omitempty"`
}

// PodCertificateProjection projects a pod certificate and its key.
type PodCertificateProjection struct {
	// SignerName of the certificate.
	SignerName string `json:"signerName,omitempty"`
	// KeyType of the private key.
	KeyType string `json:"keyType,omitempty"`
	// MaxExpirationSeconds bounds the certificate's lifetime.
	MaxExpirationSeconds *int32 `json:"maxExpirationSeconds,omitempty"`
	// CredentialBundlePath is the file with key and chain.
	CredentialBundlePath string `json:"credentialBundlePath,omitempty"`
	// KeyPath is the file with the key.
	KeyPath string `json:"keyPath,omitempty"`
	// CertificateChainPath is the file with the chain.
	CertificateChainPath string `json:"certificateChainPath,omitempty"`
	// UserAnnotations are passed to the signer.
	UserAnnotations map[string]string `json:"userAnnotations,omitempty"`
	// User owns the files.
	User *int64 `json:"user,omitempty"`
}

// GCEPersistentDiskVolumeSource is a GCE persistent disk (pods and PVs).
type GCEPersistentDiskVolumeSource struct {
	// PDName is the disk's name in GCE.
	PDName string `json:"pdName"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// Partition to mount; 0 is the whole disk.
	Partition int32 `json:"partition,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// AWSElasticBlockStoreVolumeSource is an AWS EBS volume (pods and PVs).
type AWSElasticBlockStoreVolumeSource struct {
	// VolumeID of the EBS volume.
	VolumeID string `json:"volumeID"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// Partition to mount; 0 is the whole disk.
	Partition int32 `json:"partition,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// AzureDataDiskCachingMode is None, ReadOnly or ReadWrite.
type AzureDataDiskCachingMode string

// AzureDataDiskKind is Shared, Dedicated or Managed.
type AzureDataDiskKind string

// AzureDiskVolumeSource is an Azure data disk (pods and PVs).
type AzureDiskVolumeSource struct {
	// DiskName of the data disk.
	DiskName string `json:"diskName"`
	// DataDiskURI is the disk's URI.
	DataDiskURI string `json:"diskURI"`
	// CachingMode of the host.
	CachingMode *AzureDataDiskCachingMode `json:"cachingMode,omitempty"`
	// FSType of the filesystem.
	FSType *string `json:"fsType,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly *bool `json:"readOnly,omitempty"`
	// Kind of disk.
	Kind *AzureDataDiskKind `json:"kind,omitempty"`
}

// AzureFileVolumeSource is an Azure File share in a pod.
type AzureFileVolumeSource struct {
	// SecretName holds the account name and key.
	SecretName string `json:"secretName"`
	// ShareName of the share.
	ShareName string `json:"shareName"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// PortworxVolumeSource is a Portworx volume, in a pod or as a
// PersistentVolume.
type PortworxVolumeSource struct {
	// VolumeID of the Portworx volume.
	VolumeID string `json:"volumeID"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// CinderVolumeSource is an OpenStack Cinder volume in a pod.
type CinderVolumeSource struct {
	// VolumeID of the Cinder volume.
	VolumeID string `json:"volumeID"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// SecretRef holds the OpenStack credentials.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty"`
}

// RBDVolumeSource is a Ceph RBD image in a pod.
type RBDVolumeSource struct {
	// CephMonitors are the Ceph monitors.
	CephMonitors []string `json:"monitors"`
	// RBDImage is the image name.
	RBDImage string `json:"image"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// RBDPool is the pool; default "rbd".
	RBDPool string `json:"pool,omitempty"`
	// RadosUser is the Rados user; default "admin".
	RadosUser string `json:"user,omitempty"`
	// Keyring is the keyring path.
	Keyring string `json:"keyring,omitempty"`
	// SecretRef holds the authentication secret.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// ISCSIVolumeSource is an iSCSI disk in a pod.
type ISCSIVolumeSource struct {
	// TargetPortal is ip:port of the target.
	TargetPortal string `json:"targetPortal"`
	// IQN is the target's iSCSI qualified name.
	IQN string `json:"iqn"`
	// Lun is the target's LUN number.
	Lun int32 `json:"lun"`
	// ISCSIInterface is the iSCSI transport; default "default".
	ISCSIInterface string `json:"iscsiInterface,omitempty"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Portals are further target portals.
	Portals []string `json:"portals,omitempty"`
	// DiscoveryCHAPAuth enables CHAP discovery authentication.
	DiscoveryCHAPAuth bool `json:"chapAuthDiscovery,omitempty"`
	// SessionCHAPAuth enables CHAP session authentication.
	SessionCHAPAuth bool `json:"chapAuthSession,omitempty"`
	// SecretRef holds the CHAP secret.
	SecretRef *LocalObjectReference `json:"secretRef,omitempty"`
	// InitiatorName is a custom initiator name.
	InitiatorName *string `json:"initiatorName,omitempty"`
}

// NFSVolumeSource is an NFS share (pods and PVs).
type NFSVolumeSource struct {
	// Server is the NFS server.
	Server string `json:"server"`
	// Path exported by the server.
	Path string `json:"path"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// CSIVolumeSource is an inline CSI volume in a pod.
type CSIVolumeSource struct {
	// Driver is the CSI driver's name.
	Driver string `json:"driver"`
	// ReadOnly mounts read-only.
	ReadOnly *bool `json:"readOnly,omitempty"`
	// FSType of the filesystem.
	FSType *string `json:"fsType,omitempty"`
	// VolumeAttributes are passed to the driver.
	VolumeAttributes map[string]string `json:"volumeAttributes,omitempty"`
	// NodePublishSecretRef holds secrets for NodePublishVolume.
	NodePublishSecretRef *LocalObjectReference `json:"nodePublishSecretRef,omitempty"`
}

// EphemeralVolumeSource is a generic ephemeral volume.
type EphemeralVolumeSource struct {
	// VolumeClaimTemplate is the claim created for the pod.
	VolumeClaimTemplate *PersistentVolumeClaimTemplate `json:"volumeClaimTemplate,omitempty"`
}

// PersistentVolumeClaimTemplate is the claim of a generic ephemeral
// volume.
type PersistentVolumeClaimTemplate struct {
	// ObjectMeta is copied into the claim (labels, annotations).
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the claim's spec.
	Spec PersistentVolumeClaimSpec `json:"spec"`
}

// Affinity groups a pod's affinity rules.
type Affinity struct {
	// NodeAffinity constrains the nodes the pod may run on.
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty"`
	// PodAffinity co-locates the pod with other pods.
	PodAffinity *PodAffinity `json:"podAffinity,omitempty"`
	// PodAntiAffinity keeps the pod away from other pods.
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// NodeAffinity holds required and preferred node selection rules.
type NodeAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution must hold.
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution add weight to nodes
	// that match.
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is a list of terms, ORed.
type NodeSelector struct {
	// NodeSelectorTerms are ORed.
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm ANDs its expressions and fields.
type NodeSelectorTerm struct {
	// MatchExpressions over node labels.
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	// MatchFields over node fields (only metadata.name).
	MatchFields []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorOperator is In, NotIn, Exists, DoesNotExist, Gt or Lt.
type NodeSelectorOperator string

// Node selector operators.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// NodeSelectorRequirement is one expression of a NodeSelectorTerm.
type NodeSelectorRequirement struct {
	// Key is the label key (or field name for matchFields).
	Key string `json:"key"`
	// Operator relates the key to the values.
	Operator NodeSelectorOperator `json:"operator"`
	// Values are the operands.
	Values []string `json:"values,omitempty"`
}

// PreferredSchedulingTerm is a weighted node selector term.
type PreferredSchedulingTerm struct {
	// Weight in 1..100.
	Weight int32 `json:"weight"`
	// Preference is the term to match.
	Preference NodeSelectorTerm `json:"preference"`
}

// PodAffinity holds pod affinity terms.
type PodAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution must hold.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution add weight.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity holds pod anti-affinity terms.
type PodAntiAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution must hold.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution add weight.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods in namespaces and a topology domain.
type PodAffinityTerm struct {
	// LabelSelector over pods; nil matches no pods.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// Namespaces to look in; with a nil NamespaceSelector an empty list
	// means the pod's own namespace.
	Namespaces []string `json:"namespaces,omitempty"`
	// TopologyKey names the node label that defines domains.
	TopologyKey string `json:"topologyKey"`
	// NamespaceSelector over namespaces; empty selects all namespaces.
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	// MatchLabelKeys are pod label keys whose values (from the incoming
	// pod) are ANDed into LabelSelector with In.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty"`
	// MismatchLabelKeys are ANDed with NotIn.
	MismatchLabelKeys []string `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm is a preferred pod affinity term.
type WeightedPodAffinityTerm struct {
	// Weight in 1..100.
	Weight int32 `json:"weight"`
	// PodAffinityTerm is the term.
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// TaintEffect is NoSchedule, PreferNoSchedule or NoExecute.
type TaintEffect string

// Taint effects.
const (
	TaintEffectNoSchedule       TaintEffect = "NoSchedule"
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	TaintEffectNoExecute        TaintEffect = "NoExecute"
)

// Taint repels pods that do not tolerate it.
type Taint struct {
	// Key of the taint.
	Key string `json:"key"`
	// Value of the taint.
	Value string `json:"value,omitempty"`
	// Effect on pods that do not tolerate it.
	Effect TaintEffect `json:"effect"`
	// TimeAdded is when a NoExecute taint was added.
	TimeAdded *Time `json:"timeAdded,omitempty"`
}

// TolerationOperator is Exists or Equal.
type TolerationOperator string

// Toleration operators.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// Toleration lets a pod tolerate matching taints.
type Toleration struct {
	// Key to match; empty with Exists matches every key.
	Key string `json:"key,omitempty"`
	// Operator is Equal (default) or Exists.
	Operator TolerationOperator `json:"operator,omitempty"`
	// Value to match with Equal.
	Value string `json:"value,omitempty"`
	// Effect to match; empty matches all effects.
	Effect TaintEffect `json:"effect,omitempty"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// UnsatisfiableConstraintAction is DoNotSchedule or ScheduleAnyway.
type UnsatisfiableConstraintAction string

// Actions for unsatisfiable topology spread constraints.
const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy is Honor or Ignore.
type NodeInclusionPolicy string

// Node inclusion policies.
const (
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	NodeInclusionPolicyHonor  NodeInclusionPolicy = "Honor"
)

// TopologySpreadConstraint spreads matching pods across topology domains.
type TopologySpreadConstraint struct {
	// MaxSkew is the allowed difference between domains.
	MaxSkew int32 `json:"maxSkew"`
	// TopologyKey names the node label that defines domains.
	TopologyKey string `json:"topologyKey"`
	// WhenUnsatisfiable is DoNotSchedule or ScheduleAnyway.
	WhenUnsatisfiable UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	// LabelSelector over pods to count.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// MinDomains is the minimum number of eligible domains.
	MinDomains *int32 `json:"minDomains,omitempty"`
	// NodeAffinityPolicy: whether node affinity limits the domains.
	NodeAffinityPolicy *NodeInclusionPolicy `json:"nodeAffinityPolicy,omitempty"`
	// NodeTaintsPolicy: whether taints limit the domains.
	NodeTaintsPolicy *NodeInclusionPolicy `json:"nodeTaintsPolicy,omitempty"`
	// MatchLabelKeys are ANDed into LabelSelector from the pod's labels.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty"`
}

// PodPhase is Pending, Running, Succeeded, Failed or Unknown.
type PodPhase string

// Pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// PodConditionType names a pod condition.
type PodConditionType string

// Pod condition types.
const (
	PodScheduled        PodConditionType = "PodScheduled"
	PodReady            PodConditionType = "Ready"
	PodInitialized      PodConditionType = "Initialized"
	ContainersReady     PodConditionType = "ContainersReady"
	DisruptionTarget    PodConditionType = "DisruptionTarget"
	PodResizePending    PodConditionType = "PodResizePending"
	PodResizeInProgress PodConditionType = "PodResizeInProgress"
)

// PodCondition is one condition of a pod.
type PodCondition struct {
	// Type of the condition.
	Type PodConditionType `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// LastProbeTime is when the condition was probed.
	LastProbeTime Time `json:"lastProbeTime,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a one-word cause.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable detail.
	Message string `json:"message,omitempty"`
}

// QOSClass is Guaranteed, Burstable or BestEffort.
type QOSClass string

// QoS classes.
const (
	PodQOSGuaranteed QOSClass = "Guaranteed"
	PodQOSBurstable  QOSClass = "Burstable"
	PodQOSBestEffort QOSClass = "BestEffort"
)

// PodStatus is the observed state of a pod.
type PodStatus struct {
	// Phase of the pod.
	Phase PodPhase `json:"phase,omitempty"`
	// Conditions of the pod.
	Conditions []PodCondition `json:"conditions,omitempty"`
	// Message about the pod's state.
	Message string `json:"message,omitempty"`
	// Reason for the pod's state.
	Reason string `json:"reason,omitempty"`
	// NominatedNodeName is where preemption made room for the pod.
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
	// HostIP is the node's address.
	HostIP string `json:"hostIP,omitempty"`
	// PodIP is the pod's address.
	PodIP string `json:"podIP,omitempty"`
	// StartTime is when the kubelet accepted the pod.
	StartTime *Time `json:"startTime,omitempty"`
	// InitContainerStatuses report the init containers.
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	// ContainerStatuses report the containers.
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	// QOSClass is the pod's QoS class as the API server computed it.
	QOSClass QOSClass `json:"qosClass,omitempty"`
	// Resize is the deprecated in-place resize status.
	Resize string `json:"resize,omitempty"`
	// Resources are the pod-level resources the kubelet applied.
	Resources *ResourceRequirements `json:"resources,omitempty"`
	// AllocatedResources are the pod-level resources the node allocated
	// to the pod, set while a pod-level in-place resize is tracked.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty"`
	// ResourceClaimStatuses name the claims made from the pod's
	// templates.
	ResourceClaimStatuses []PodResourceClaimStatus `json:"resourceClaimStatuses,omitempty"`
	// ExtendedResourceClaimStatus is the claim the scheduler made for
	// the pod's DRA-backed extended resources.
	ExtendedResourceClaimStatus *PodExtendedResourceClaimStatus `json:"extendedResourceClaimStatus,omitempty"`
}

// ContainerStatus is what the kubelet reports of a container; schedkit
// reads the resources fields for pods being resized in place.
type ContainerStatus struct {
	// Name of the container.
	Name string `json:"name"`
	// Ready reports readiness.
	Ready bool `json:"ready"`
	// RestartCount counts restarts.
	RestartCount int32 `json:"restartCount"`
	// Image running.
	Image string `json:"image,omitempty"`
	// Started reports whether the container passed its startup probe.
	Started *bool `json:"started,omitempty"`
	// AllocatedResources are what the node allocated to the container.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty"`
	// Resources are the requests and limits actually applied.
	Resources *ResourceRequirements `json:"resources,omitempty"`
	// State is the container's state now (the Job controller's pod
	// failure policy reads a terminated container's exit code).
	State ContainerState `json:"state,omitzero"`
}

// ContainerState is one of waiting, running or terminated.
type ContainerState struct {
	// Waiting: not yet running.
	Waiting *ContainerStateWaiting `json:"waiting,omitempty"`
	// Running since StartedAt.
	Running *ContainerStateRunning `json:"running,omitempty"`
	// Terminated, with its exit code.
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting is a container that is not running yet.
type ContainerStateWaiting struct {
	// Reason it is not running yet.
	Reason string `json:"reason,omitempty"`
	// Message with details.
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	// StartedAt is when it last started.
	StartedAt Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated is a container that has exited.
type ContainerStateTerminated struct {
	// ExitCode of the container's last process.
	ExitCode int32 `json:"exitCode"`
	// Signal that ended it, if any.
	Signal int32 `json:"signal,omitempty"`
	// Reason for the termination.
	Reason string `json:"reason,omitempty"`
	// Message with details.
	Message string `json:"message,omitempty"`
	// StartedAt is when the container started.
	StartedAt Time `json:"startedAt,omitempty"`
	// FinishedAt is when it exited.
	FinishedAt Time `json:"finishedAt,omitempty"`
	// ContainerID is the runtime's id of the container.
	ContainerID string `json:"containerID,omitempty"`
}

package api

import "github.com/schedkit/schedkit/quantity"

// ObjectReference points at an object of any kind, such as the claim a
// PersistentVolume is bound to.
type ObjectReference struct {
	// Kind of the object.
	Kind string `json:"kind,omitempty"`
	// Namespace of the object.
	Namespace string `json:"namespace,omitempty"`
	// Name of the object.
	Name string `json:"name,omitempty"`
	// UID of the object.
	UID string `json:"uid,omitempty"`
	// APIVersion of the object.
	APIVersion string `json:"apiVersion,omitempty"`
	// ResourceVersion of the object.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// FieldPath names a part of the object, such as a container.
	FieldPath string `json:"fieldPath,omitempty"`
}

// SecretReference names a Secret in any namespace.
type SecretReference struct {
	// Name of the Secret.
	Name string `json:"name,omitempty"`
	// Namespace of the Secret.
	Namespace string `json:"namespace,omitempty"`
}

// TypedLocalObjectReference names an object of a kind in the same
// namespace.
type TypedLocalObjectReference struct {
	// APIGroup of the kind; nil for the core group.
	APIGroup *string `json:"apiGroup"`
	// Kind of the object.
	Kind string `json:"kind"`
	// Name of the object.
	Name string `json:"name"`
}

// TypedObjectReference names an object of a kind, possibly in another
// namespace.
type TypedObjectReference struct {
	// APIGroup of the kind; nil for the core group.
	APIGroup *string `json:"apiGroup"`
	// Kind of the object.
	Kind string `json:"kind"`
	// Name of the object.
	Name string `json:"name"`
	// Namespace of the object; nil is the claim's namespace.
	Namespace *string `json:"namespace,omitempty"`
}

// PersistentVolumeAccessMode is how a volume can be mounted.
type PersistentVolumeAccessMode string

// Access modes.
const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod"
)

// PersistentVolumeReclaimPolicy is what happens to a released volume.
type PersistentVolumeReclaimPolicy string

// Reclaim policies.
const (
	PersistentVolumeReclaimRecycle PersistentVolumeReclaimPolicy = "Recycle"
	PersistentVolumeReclaimDelete  PersistentVolumeReclaimPolicy = "Delete"
	PersistentVolumeReclaimRetain  PersistentVolumeReclaimPolicy = "Retain"
)

// PersistentVolumeMode is Filesystem (the default) or Block.
type PersistentVolumeMode string

// Volume modes.
const (
	PersistentVolumeBlock      PersistentVolumeMode = "Block"
	PersistentVolumeFilesystem PersistentVolumeMode = "Filesystem"
)

// PersistentVolumePhase is the lifecycle phase of a volume.
type PersistentVolumePhase string

// Volume phases.
const (
	VolumePending   PersistentVolumePhase = "Pending"
	VolumeAvailable PersistentVolumePhase = "Available"
	VolumeBound     PersistentVolumePhase = "Bound"
	VolumeReleased  PersistentVolumePhase = "Released"
	VolumeFailed    PersistentVolumePhase = "Failed"
)

// PersistentVolumeClaimPhase is the lifecycle phase of a claim.
type PersistentVolumeClaimPhase string

// Claim phases.
const (
	ClaimPending PersistentVolumeClaimPhase = "Pending"
	ClaimBound   PersistentVolumeClaimPhase = "Bound"
	ClaimLost    PersistentVolumeClaimPhase = "Lost"
)

// Annotations the volume binder and provisioners read and write.
const (
	// AnnBindCompleted on a claim: the binding to a volume is complete.
	AnnBindCompleted = "pv.kubernetes.io/bind-completed"
	// AnnBoundByController: the controller, not the user, bound the
	// object.
	AnnBoundByController = "pv.kubernetes.io/bound-by-controller"
	// AnnSelectedNode on a claim: the node the scheduler chose for a
	// WaitForFirstConsumer claim to be provisioned for.
	AnnSelectedNode = "volume.kubernetes.io/selected-node"
	// AnnStorageProvisioner on a claim: the provisioner asked to
	// provision it.
	AnnStorageProvisioner = "volume.kubernetes.io/storage-provisioner"
	// AnnBetaStorageProvisioner is the beta form of AnnStorageProvisioner.
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	// AnnDynamicallyProvisioned on a volume: the provisioner that made it.
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	// AnnMigratedTo: the CSI driver an in-tree volume is migrated to.
	AnnMigratedTo = "pv.kubernetes.io/migrated-to"
	// BetaStorageClassAnnotation is the deprecated annotation naming a
	// claim's or volume's class, read when storageClassName is unset.
	BetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"
	// IsDefaultStorageClassAnnotation marks the default StorageClass.
	IsDefaultStorageClassAnnotation = "storageclass.kubernetes.io/is-default-class"
	// BetaIsDefaultStorageClassAnnotation is its beta form.
	BetaIsDefaultStorageClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)

// PersistentVolume is a piece of storage in the cluster (core/v1).
type PersistentVolume struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the volume's name (volumes are cluster-scoped).
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the volume.
	Spec PersistentVolumeSpec `json:"spec,omitempty"`
	// Status is the observed volume.
	Status PersistentVolumeStatus `json:"status,omitempty"`
}

// PersistentVolumeSpec describes a volume.
type PersistentVolumeSpec struct {
	// Capacity, such as storage.
	Capacity ResourceList `json:"capacity,omitempty"`
	// PersistentVolumeSource is where the storage is (inline in JSON).
	PersistentVolumeSource `json:",inline"`
	// AccessModes the volume supports.
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	// ClaimRef is the claim bound (or to be bound) to the volume.
	ClaimRef *ObjectReference `json:"claimRef,omitempty"`
	// PersistentVolumeReclaimPolicy is what happens when the claim goes.
	PersistentVolumeReclaimPolicy PersistentVolumeReclaimPolicy `json:"persistentVolumeReclaimPolicy,omitempty"`
	// StorageClassName is the volume's class; empty is no class.
	StorageClassName string `json:"storageClassName,omitempty"`
	// MountOptions for the mount.
	MountOptions []string `json:"mountOptions,omitempty"`
	// VolumeMode is Filesystem (nil) or Block.
	VolumeMode *PersistentVolumeMode `json:"volumeMode,omitempty"`
	// NodeAffinity limits the nodes the volume can be used from.
	NodeAffinity *VolumeNodeAffinity `json:"nodeAffinity,omitempty"`
	// VolumeAttributesClassName is the volume's attributes class.
	VolumeAttributesClassName *string `json:"volumeAttributesClassName,omitempty"`
}

// PersistentVolumeSource is where a volume's storage is; exactly one
// field is set. schedkit models the sources the storage plugins read.
type PersistentVolumeSource struct {
	// GCEPersistentDisk is a GCE persistent disk.
	GCEPersistentDisk *GCEPersistentDiskVolumeSource `json:"gcePersistentDisk,omitempty"`
	// AWSElasticBlockStore is an AWS EBS volume.
	AWSElasticBlockStore *AWSElasticBlockStoreVolumeSource `json:"awsElasticBlockStore,omitempty"`
	// HostPath is a node path (single-node testing only).
	HostPath *HostPathVolumeSource `json:"hostPath,omitempty"`
	// NFS is an NFS share.
	NFS *NFSVolumeSource `json:"nfs,omitempty"`
	// RBD is a Ceph RBD image.
	RBD *RBDPersistentVolumeSource `json:"rbd,omitempty"`
	// ISCSI is an iSCSI disk.
	ISCSI *ISCSIPersistentVolumeSource `json:"iscsi,omitempty"`
	// Cinder is an OpenStack Cinder volume.
	Cinder *CinderPersistentVolumeSource `json:"cinder,omitempty"`
	// AzureFile is an Azure File share.
	AzureFile *AzureFilePersistentVolumeSource `json:"azureFile,omitempty"`
	// AzureDisk is an Azure data disk.
	AzureDisk *AzureDiskVolumeSource `json:"azureDisk,omitempty"`
	// PortworxVolume is a Portworx volume.
	PortworxVolume *PortworxVolumeSource `json:"portworxVolume,omitempty"`
	// Local is a local disk, partition or directory of one node.
	Local *LocalVolumeSource `json:"local,omitempty"`
	// CSI is a volume of an external CSI driver.
	CSI *CSIPersistentVolumeSource `json:"csi,omitempty"`
}

// RBDPersistentVolumeSource is a Ceph RBD image as a volume.
type RBDPersistentVolumeSource struct {
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
	SecretRef *SecretReference `json:"secretRef,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// ISCSIPersistentVolumeSource is an iSCSI disk as a volume.
type ISCSIPersistentVolumeSource struct {
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
	SecretRef *SecretReference `json:"secretRef,omitempty"`
	// InitiatorName is a custom initiator name.
	InitiatorName *string `json:"initiatorName,omitempty"`
}

// CinderPersistentVolumeSource is an OpenStack Cinder volume as a volume.
type CinderPersistentVolumeSource struct {
	// VolumeID of the Cinder volume.
	VolumeID string `json:"volumeID"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// SecretRef holds the OpenStack credentials.
	SecretRef *SecretReference `json:"secretRef,omitempty"`
}

// AzureFilePersistentVolumeSource is an Azure File share as a volume.
type AzureFilePersistentVolumeSource struct {
	// SecretName holds the account name and key.
	SecretName string `json:"secretName"`
	// ShareName of the share.
	ShareName string `json:"shareName"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// SecretNamespace of the secret; nil is the pod's namespace.
	SecretNamespace *string `json:"secretNamespace"`
}

// LocalVolumeSource is a local disk, partition or directory.
type LocalVolumeSource struct {
	// Path on the node.
	Path string `json:"path"`
	// FSType of a block device's filesystem.
	FSType *string `json:"fsType,omitempty"`
}

// CSIPersistentVolumeSource is a volume of an external CSI driver.
type CSIPersistentVolumeSource struct {
	// Driver is the CSI driver's name.
	Driver string `json:"driver"`
	// VolumeHandle is the driver's ID of the volume.
	VolumeHandle string `json:"volumeHandle"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// FSType of the filesystem.
	FSType string `json:"fsType,omitempty"`
	// VolumeAttributes are passed to the driver.
	VolumeAttributes map[string]string `json:"volumeAttributes,omitempty"`
	// ControllerPublishSecretRef holds secrets for ControllerPublishVolume.
	ControllerPublishSecretRef *SecretReference `json:"controllerPublishSecretRef,omitempty"`
	// NodeStageSecretRef holds secrets for NodeStageVolume.
	NodeStageSecretRef *SecretReference `json:"nodeStageSecretRef,omitempty"`
	// NodePublishSecretRef holds secrets for NodePublishVolume.
	NodePublishSecretRef *SecretReference `json:"nodePublishSecretRef,omitempty"`
	// ControllerExpandSecretRef holds secrets for ControllerExpandVolume.
	ControllerExpandSecretRef *SecretReference `json:"controllerExpandSecretRef,omitempty"`
	// NodeExpandSecretRef holds secrets for NodeExpandVolume.
	NodeExpandSecretRef *SecretReference `json:"nodeExpandSecretRef,omitempty"`
}

// VolumeNodeAffinity limits the nodes a volume can be used from.
type VolumeNodeAffinity struct {
	// Required must hold for a node to use the volume.
	Required *NodeSelector `json:"required,omitempty"`
}

// PersistentVolumeStatus is the observed state of a volume.
type PersistentVolumeStatus struct {
	// Phase of the volume.
	Phase PersistentVolumePhase `json:"phase,omitempty"`
	// Message about the volume's state.
	Message string `json:"message,omitempty"`
	// Reason for a failure.
	Reason string `json:"reason,omitempty"`
	// LastPhaseTransitionTime is when the phase last changed.
	LastPhaseTransitionTime *Time `json:"lastPhaseTransitionTime,omitempty"`
}

// PersistentVolumeClaim is a user's request for storage (core/v1).
type PersistentVolumeClaim struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name, namespace and the binder's annotations.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the claim.
	Spec PersistentVolumeClaimSpec `json:"spec,omitempty"`
	// Status is the observed claim.
	Status PersistentVolumeClaimStatus `json:"status,omitempty"`
}

// PersistentVolumeClaimSpec is what a claim asks for.
type PersistentVolumeClaimSpec struct {
	// AccessModes the volume must support.
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	// Selector over volumes to bind to.
	Selector *LabelSelector `json:"selector,omitempty"`
	// Resources: the storage requested, and a limit.
	Resources VolumeResourceRequirements `json:"resources,omitempty"`
	// VolumeName binds the claim to this volume.
	VolumeName string `json:"volumeName,omitempty"`
	// StorageClassName is the class; nil means the default class, ""
	// means no class.
	StorageClassName *string `json:"storageClassName,omitempty"`
	// VolumeMode is Filesystem (nil) or Block.
	VolumeMode *PersistentVolumeMode `json:"volumeMode,omitempty"`
	// DataSource to populate the volume from.
	DataSource *TypedLocalObjectReference `json:"dataSource,omitempty"`
	// DataSourceRef to populate the volume from, possibly in another
	// namespace.
	DataSourceRef *TypedObjectReference `json:"dataSourceRef,omitempty"`
	// VolumeAttributesClassName is the attributes class asked for.
	VolumeAttributesClassName *string `json:"volumeAttributesClassName,omitempty"`
}

// VolumeResourceRequirements are a claim's storage request and limit.
type VolumeResourceRequirements struct {
	// Limits cap the storage.
	Limits ResourceList `json:"limits,omitempty"`
	// Requests are the storage asked for.
	Requests ResourceList `json:"requests,omitempty"`
}

// PersistentVolumeClaimConditionType names a claim condition.
type PersistentVolumeClaimConditionType string

// PersistentVolumeClaimCondition is one condition of a claim.
type PersistentVolumeClaimCondition struct {
	// Type of the condition.
	Type PersistentVolumeClaimConditionType `json:"type"`
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

// ModifyVolumeStatus is the state of a volume attributes class change.
type ModifyVolumeStatus struct {
	// TargetVolumeAttributesClassName is the class being applied.
	TargetVolumeAttributesClassName string `json:"targetVolumeAttributesClassName,omitempty"`
	// Status is Pending, InProgress or Infeasible.
	Status string `json:"status"`
}

// PersistentVolumeClaimStatus is the observed state of a claim.
type PersistentVolumeClaimStatus struct {
	// Phase of the claim.
	Phase PersistentVolumeClaimPhase `json:"phase,omitempty"`
	// AccessModes of the bound volume.
	AccessModes []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	// Capacity of the bound volume.
	Capacity ResourceList `json:"capacity,omitempty"`
	// Conditions of the claim, such as Resizing.
	Conditions []PersistentVolumeClaimCondition `json:"conditions,omitempty"`
	// AllocatedResources are what was allocated for a resize.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty"`
	// AllocatedResourceStatuses are the resize statuses per resource.
	AllocatedResourceStatuses map[ResourceName]string `json:"allocatedResourceStatuses,omitempty"`
	// CurrentVolumeAttributesClassName is the class applied.
	CurrentVolumeAttributesClassName *string `json:"currentVolumeAttributesClassName,omitempty"`
	// ModifyVolumeStatus is the state of a class change.
	ModifyVolumeStatus *ModifyVolumeStatus `json:"modifyVolumeStatus,omitempty"`
}

// VolumeBindingMode is when claims of a class are bound.
type VolumeBindingMode string

// Volume binding modes.
const (
	// VolumeBindingImmediate binds and provisions claims at once.
	VolumeBindingImmediate VolumeBindingMode = "Immediate"
	// VolumeBindingWaitForFirstConsumer binds claims when a pod using
	// them is scheduled, so the scheduler can take the volume's topology
	// into account.
	VolumeBindingWaitForFirstConsumer VolumeBindingMode = "WaitForFirstConsumer"
)

// StorageClass describes a class of storage (storage.k8s.io/v1).
type StorageClass struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the class name (classes are cluster-scoped).
	ObjectMeta `json:"metadata,omitempty"`
	// Provisioner is the volume plugin that provisions volumes.
	Provisioner string `json:"provisioner"`
	// Parameters for the provisioner.
	Parameters map[string]string `json:"parameters,omitempty"`
	// ReclaimPolicy of provisioned volumes; nil means Delete.
	ReclaimPolicy *PersistentVolumeReclaimPolicy `json:"reclaimPolicy,omitempty"`
	// MountOptions of provisioned volumes.
	MountOptions []string `json:"mountOptions,omitempty"`
	// AllowVolumeExpansion lets claims grow.
	AllowVolumeExpansion *bool `json:"allowVolumeExpansion,omitempty"`
	// VolumeBindingMode; nil means Immediate.
	VolumeBindingMode *VolumeBindingMode `json:"volumeBindingMode,omitempty"`
	// AllowedTopologies limit where volumes may be provisioned; empty
	// allows anywhere.
	AllowedTopologies []TopologySelectorTerm `json:"allowedTopologies,omitempty"`
}

// TopologySelectorTerm ANDs label requirements over topology.
type TopologySelectorTerm struct {
	// MatchLabelExpressions must all hold.
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty"`
}

// TopologySelectorLabelRequirement requires a label to have one of the
// values.
type TopologySelectorLabelRequirement struct {
	// Key is the label key.
	Key string `json:"key"`
	// Values the label may have.
	Values []string `json:"values"`
}

// CSINode holds the CSI drivers installed on a node
// (storage.k8s.io/v1); its name is the node's.
type CSINode struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the node's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec lists the drivers.
	Spec CSINodeSpec `json:"spec"`
}

// CSINodeSpec lists the CSI drivers of a node.
type CSINodeSpec struct {
	// Drivers on the node.
	Drivers []CSINodeDriver `json:"drivers"`
}

// CSINodeDriver is one CSI driver on a node.
type CSINodeDriver struct {
	// Name of the driver.
	Name string `json:"name"`
	// NodeID is the driver's ID of the node.
	NodeID string `json:"nodeID"`
	// TopologyKeys are the node label keys the driver reports.
	TopologyKeys []string `json:"topologyKeys"`
	// Allocatable is the volume limit of the driver on the node.
	Allocatable *VolumeNodeResources `json:"allocatable,omitempty"`
}

// VolumeNodeResources is a driver's volume limit on a node.
type VolumeNodeResources struct {
	// Count is the most volumes of the driver the node can use; nil is
	// no limit.
	Count *int32 `json:"count,omitempty"`
}

// VolumeLifecycleMode is Persistent or Ephemeral.
type VolumeLifecycleMode string

// Volume lifecycle modes.
const (
	VolumeLifecyclePersistent VolumeLifecycleMode = "Persistent"
	VolumeLifecycleEphemeral  VolumeLifecycleMode = "Ephemeral"
)

// FSGroupPolicy is how a driver's volumes take a pod's fsGroup.
type FSGroupPolicy string

// FSGroup policies.
const (
	ReadWriteOnceWithFSTypeFSGroupPolicy FSGroupPolicy = "ReadWriteOnceWithFSType"
	FileFSGroupPolicy                    FSGroupPolicy = "File"
	NoneFSGroupPolicy                    FSGroupPolicy = "None"
)

// CSIDriver describes a CSI driver (storage.k8s.io/v1); its name is the
// driver's.
type CSIDriver struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the driver's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec describes the driver.
	Spec CSIDriverSpec `json:"spec"`
}

// CSIDriverSpec describes what a CSI driver needs and supports.
type CSIDriverSpec struct {
	// AttachRequired: the driver needs ControllerPublishVolume; nil
	// means true.
	AttachRequired *bool `json:"attachRequired,omitempty"`
	// PodInfoOnMount passes pod information at mount time.
	PodInfoOnMount *bool `json:"podInfoOnMount,omitempty"`
	// VolumeLifecycleModes the driver supports; empty means Persistent.
	VolumeLifecycleModes []VolumeLifecycleMode `json:"volumeLifecycleModes,omitempty"`
	// StorageCapacity: the scheduler checks CSIStorageCapacity objects
	// for the driver's WaitForFirstConsumer volumes.
	StorageCapacity *bool `json:"storageCapacity,omitempty"`
	// FSGroupPolicy of the driver's volumes.
	FSGroupPolicy *FSGroupPolicy `json:"fsGroupPolicy,omitempty"`
	// TokenRequests are the service account tokens passed at mount time.
	TokenRequests []TokenRequest `json:"tokenRequests,omitempty"`
	// RequiresRepublish makes the kubelet call NodePublishVolume
	// periodically.
	RequiresRepublish *bool `json:"requiresRepublish,omitempty"`
	// SELinuxMount: the driver supports the SELinux context mount option.
	SELinuxMount *bool `json:"seLinuxMount,omitempty"`
	// NodeAllocatableUpdatePeriodSeconds is how often the kubelet
	// refreshes the driver's CSINode allocatable count.
	NodeAllocatableUpdatePeriodSeconds *int64 `json:"nodeAllocatableUpdatePeriodSeconds,omitempty"`
	// ServiceAccountTokenInSecrets passes tokens in the secrets field.
	ServiceAccountTokenInSecrets *bool `json:"serviceAccountTokenInSecrets,omitempty"`
	// PreventPodSchedulingIfMissing keeps pods using the driver off
	// nodes whose CSINode does not list it.
	PreventPodSchedulingIfMissing *bool `json:"preventPodSchedulingIfMissing,omitempty"`
}

// TokenRequest is a service account token a CSI driver asks for.
type TokenRequest struct {
	// Audience of the token.
	Audience string `json:"audience"`
	// ExpirationSeconds is the token's lifetime.
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
}

// CSIStorageCapacity is the storage a CSI driver can provision for a
// class in a topology segment (storage.k8s.io/v1).
type CSIStorageCapacity struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds name and namespace.
	ObjectMeta `json:"metadata,omitempty"`
	// NodeTopology selects the nodes that can reach the storage; nil
	// selects none.
	NodeTopology *LabelSelector `json:"nodeTopology,omitempty"`
	// StorageClassName the capacity is for.
	StorageClassName string `json:"storageClassName"`
	// Capacity available; nil is unknown.
	Capacity *quantity.Quantity `json:"capacity,omitempty"`
	// MaximumVolumeSize is the largest volume that can be made; nil
	// means Capacity.
	MaximumVolumeSize *quantity.Quantity `json:"maximumVolumeSize,omitempty"`
}

// VolumeAttachment is a CSI driver's record that a volume is (to be)
// attached to a node (storage.k8s.io/v1). NodeVolumeLimits counts the
// attachments of a node against its CSI drivers' limits.
type VolumeAttachment struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the attachment's name.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the attachment asked for.
	Spec VolumeAttachmentSpec `json:"spec"`
	// Status is the attacher's report.
	Status VolumeAttachmentStatus `json:"status,omitempty"`
}

// VolumeAttachmentSpec names the attacher, the volume and the node.
type VolumeAttachmentSpec struct {
	// Attacher is the CSI driver that attaches the volume.
	Attacher string `json:"attacher"`
	// Source is the volume to attach.
	Source VolumeAttachmentSource `json:"source"`
	// NodeName is the node the volume is attached to.
	NodeName string `json:"nodeName"`
}

// VolumeAttachmentSource is the volume of an attachment: a
// PersistentVolume by name, or an inline volume migrated to CSI.
type VolumeAttachmentSource struct {
	// PersistentVolumeName names the PersistentVolume.
	PersistentVolumeName *string `json:"persistentVolumeName,omitempty"`
	// InlineVolumeSpec is the spec of an inline volume translated to CSI.
	InlineVolumeSpec *PersistentVolumeSpec `json:"inlineVolumeSpec,omitempty"`
}

// VolumeAttachmentStatus is what the attacher reports.
type VolumeAttachmentStatus struct {
	// Attached reports that the attach operation completed.
	Attached bool `json:"attached"`
	// AttachmentMetadata is what the attacher returned on success.
	AttachmentMetadata map[string]string `json:"attachmentMetadata,omitempty"`
	// AttachError is the last attach error.
	AttachError *VolumeError `json:"attachError,omitempty"`
	// DetachError is the last detach error.
	DetachError *VolumeError `json:"detachError,omitempty"`
}

// VolumeError is an attach or detach error.
type VolumeError struct {
	// Time the error happened.
	Time Time `json:"time,omitempty"`
	// Message describes the error.
	Message string `json:"message,omitempty"`
	// ErrorCode is the CSI error code, when there is one.
	ErrorCode *int32 `json:"errorCode,omitempty"`
}

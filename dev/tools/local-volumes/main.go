// Command local-volumes is the local platform's volume provisioner: for every
// PersistentVolumeClaim of its StorageClass it makes a folder under --dir and a hostPath
// PersistentVolume for it, and removes the folder when a volume with the Delete policy is
// released. The folders are writable by every user id, so pods running as non-root (as every Ludis
// workload does) can write to them; the controller-manager's own hostPath provisioner makes them
// 0750 and root's. Single machine, development and tests only. The claim handling (binding,
// retries, reclaim policies) is sig-storage-lib-external-provisioner's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"sigs.k8s.io/sig-storage-lib-external-provisioner/v10/controller"
)

type folders struct{ dir string }

func (f folders) path(pv string) string { return filepath.Join(f.dir, pv) }

func (f folders) Provision(_ context.Context, o controller.ProvisionOptions) (*v1.PersistentVolume, controller.ProvisioningState, error) {
	if o.PVC.Spec.VolumeMode != nil && *o.PVC.Spec.VolumeMode == v1.PersistentVolumeBlock {
		return nil, controller.ProvisioningFinished, fmt.Errorf("block volumes are not supported")
	}
	path := f.path(o.PVName)
	if err := os.MkdirAll(path, 0o777); err != nil {
		return nil, controller.ProvisioningFinished, err
	}
	// MkdirAll's mode passes through the umask.
	if err := os.Chmod(path, 0o777); err != nil {
		return nil, controller.ProvisioningFinished, err
	}
	directory := v1.HostPathDirectory
	return &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: o.PVName},
		Spec: v1.PersistentVolumeSpec{
			PersistentVolumeReclaimPolicy: *o.StorageClass.ReclaimPolicy,
			AccessModes:                   o.PVC.Spec.AccessModes,
			Capacity:                      v1.ResourceList{v1.ResourceStorage: o.PVC.Spec.Resources.Requests[v1.ResourceStorage]},
			PersistentVolumeSource: v1.PersistentVolumeSource{
				HostPath: &v1.HostPathVolumeSource{Path: path, Type: &directory},
			},
		},
	}, controller.ProvisioningFinished, nil
}

func (f folders) Delete(_ context.Context, pv *v1.PersistentVolume) error {
	if pv.Spec.HostPath == nil {
		return &controller.IgnoredError{Reason: "not a hostPath volume"}
	}
	path := filepath.Clean(pv.Spec.HostPath.Path)
	if !strings.HasPrefix(path, f.dir+string(filepath.Separator)) {
		return &controller.IgnoredError{Reason: fmt.Sprintf("%s is not under %s", path, f.dir)}
	}
	return os.RemoveAll(path)
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	name := flag.String("provisioner", "ludis.dev/local-volumes", "the provisioner name StorageClasses use")
	dir := flag.String("dir", "", "folder that holds the volumes")
	flag.Parse()
	logger := klog.Background()
	if *dir == "" || !filepath.IsAbs(*dir) {
		logger.Error(nil, "--dir must be an absolute path")
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		logger.Error(err, "cannot create the volumes folder")
		os.Exit(1)
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		logger.Error(err, "cannot read the kubeconfig")
		os.Exit(1)
	}
	client := kubernetes.NewForConfigOrDie(config)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	controller.NewProvisionController(logger, client, *name, folders{dir: filepath.Clean(*dir)},
		controller.LeaderElection(false), controller.Threadiness(8)).Run(ctx)
}

import { Box, ColorSwatch, Group, Text, useMantineTheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import {
  AxesHelper,
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  LineBasicMaterial,
  LineSegments,
  Points,
  PointsMaterial,
  PerspectiveCamera,
  Scene,
  WebGLRenderer,
  BoxGeometry,
  EdgesGeometry,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

import { CLUSTER_COLORS } from '@/features/templates/utils/constants';

/** The points scaled into the cube [-1, 1]³, each axis on its own (a constant axis sits at 0). */
export function normalise(points: number[][]): Float32Array {
  const out = new Float32Array(points.length * 3);
  for (let axis = 0; axis < 3; axis += 1) {
    let min = Infinity;
    let max = -Infinity;
    for (const p of points) {
      min = Math.min(min, p[axis]);
      max = Math.max(max, p[axis]);
    }
    const span = max - min;
    points.forEach((p, i) => {
      out[i * 3 + axis] = span > 0 ? ((p[axis] - min) / span) * 2 - 1 : 0;
    });
  }
  return out;
}

/** The axis colours of three's AxesHelper: x red, y green, z blue. */
const AXIS_COLORS = ['#ff0000', '#00ff00', '#0000ff'] as const;

type Props = {
  /** [x, y, z, cluster] per point. */
  points: number[][];
  columns: string[];
  /** How many clusters there are. */
  clusters: number;
  height: number;
  /** Said when the browser cannot draw WebGL (the caller shows the projections instead). */
  onUnsupported: (why: string) => void;
};

/**
 * The kmeans3d scatter (spec 001 §2 "Template modes"): the clustered points in a cube, a colour a
 * cluster (the nine cluster colours), drawn with three.js; drag to turn it, scroll to zoom.
 */
export function Scatter3d({ points, columns, clusters, height, onUnsupported }: Props) {
  const theme = useMantineTheme();
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let renderer: WebGLRenderer;
    try {
      renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      onUnsupported(e instanceof Error ? e.message : String(e));
      return;
    }
    const width = el.clientWidth || 600;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(width, height);
    renderer.setClearColor(new Color(theme.white));
    el.appendChild(renderer.domElement);
    renderer.domElement.setAttribute('aria-label', `${columns.join(', ')}: ${points.length} points in 3D`);
    renderer.domElement.setAttribute('role', 'img');

    const scene = new Scene();
    const camera = new PerspectiveCamera(45, width / height, 0.1, 100);
    camera.position.set(2.6, 2.0, 3.2);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = false;

    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute(normalise(points), 3));
    const palette = CLUSTER_COLORS.map((name) => {
      const [hue, shade] = name.split('.');
      return new Color(theme.colors[hue]?.[Number(shade)] ?? '#888888');
    });
    const colors = new Float32Array(points.length * 3);
    points.forEach((p, i) => palette[p[3] % palette.length].toArray(colors, i * 3));
    geometry.setAttribute('color', new Float32BufferAttribute(colors, 3));
    const material = new PointsMaterial({ size: 0.045, vertexColors: true });
    scene.add(new Points(geometry, material));
    const box = new EdgesGeometry(new BoxGeometry(2, 2, 2));
    const boxMaterial = new LineBasicMaterial({ color: theme.colors.gray[4] });
    scene.add(new LineSegments(box, boxMaterial));
    const axes = new AxesHelper(1.2);
    axes.position.set(-1, -1, -1);
    scene.add(axes);

    const draw = () => renderer.render(scene, camera);
    controls.addEventListener('change', draw);
    draw();
    // For tests and screenshots: the first frame is drawn.
    el.dataset.drawn = 'true';
    return () => {
      controls.dispose();
      geometry.dispose();
      material.dispose();
      box.dispose();
      boxMaterial.dispose();
      axes.dispose();
      renderer.dispose();
      renderer.domElement.remove();
      delete el.dataset.drawn;
    };
  }, [points, columns, height, theme, onUnsupported]);

  return (
    <Box>
      <Box ref={host} h={height} style={{ cursor: 'grab', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }} />
      <Group gap="md" mt={4}>
        {columns.map((c, i) => (
          <Text key={c} size="xs" c="dimmed">
            <Text span fw={700} c={AXIS_COLORS[i]}>
              {['X', 'Y', 'Z'][i]}
            </Text>{' '}
            {c}
          </Text>
        ))}
        <Text size="xs" c="dimmed">
          Drag to turn, scroll to zoom.
        </Text>
      </Group>
      <Group gap="sm" mt={2} aria-label="Cluster colours">
        {Array.from({ length: clusters }, (_, i) => (
          <Group key={i} gap={4} wrap="nowrap">
            <ColorSwatch size={10} color={`var(--mantine-color-${CLUSTER_COLORS[i % CLUSTER_COLORS.length].replace('.', '-')})`} />
            <Text size="xs">Cluster {i + 1}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}

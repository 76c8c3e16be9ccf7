import { RouterProvider } from 'react-router';

import { createAppRouter } from '@/app/router';

export function App() {
  return <RouterProvider router={createAppRouter()} />;
}

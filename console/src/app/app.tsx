import { RouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';

const router = createAppRouter();

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
